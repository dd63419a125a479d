/**
 * `npm start`, the one command: demo raw data if `raw/` is absent, the snapshot of the day that just ended (yesterday,
 * UTC: the day the nightly cron builds, complete, so nothing in it is later than now) if `current` is not already
 * that day's or a later one's (built as `npm run build` would, with the same settings: pipeline/build-settings.ts;
 * the first snapshot also scores the 30 days before, as `--backfill 30`, so score history, diffs and explanations
 * are there from the start), a demo account and key on a fresh install (the key is printed once), then the API.
 * Settings: RAW_DIR (./raw), DEMO_SCALE (demo), the build's (STATE_DIR, SNAPSHOT_KEEP) and everything `npm run
 * serve` reads.
 */
import fs from 'node:fs'
import path from 'node:path'
import { buildSnapshot } from '../pipeline/build.ts'
import { currentBuildDate } from '../pipeline/publish.ts'
import { buildSettingsFromEnv } from '../pipeline/build-settings.ts'
import { recordBuild } from '../pipeline/build-status.ts'
import { log } from '../log/logger.ts'
import { createServices, storageConfigFromEnv, type AccessServices } from '../server/access/index.ts'
import { generateRaw } from './generate/index.ts'
import type { ScaleName } from './generate/scales.ts'
import { serverConfigFromEnv } from '../server/config.ts'
import { serve } from './serve.ts'

/** The day that just ended (UTC). */
const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
/** Days the first snapshot scores before it (pipeline/build.ts `backfillDays`). */
const FIRST_BACKFILL_DAYS = 30

async function main(): Promise<void> {
  // the server's settings first: a mistake there refuses the start before the data is generated and built
  serverConfigFromEnv()
  const settings = buildSettingsFromEnv()
  const { rawDir, snapshotsDir } = settings
  if (!fs.existsSync(rawDir)) {
    const scale = (process.env.DEMO_SCALE || 'demo') as ScaleName
    log.info('start.generate', { raw_dir: rawDir, scale, end_date: day })
    await generateRaw({ scale, seed: 42, outDir: rawDir, endDate: day })
  }
  const built = currentBuildDate(snapshotsDir)
  // a snapshot of a later day (built by `npm run build` for today) is kept: never moved back a day
  if (built === null || built < day) {
    const backfillDays = built === null ? FIRST_BACKFILL_DAYS : 0
    log.info('start.build', { raw_dir: rawDir, snapshots_dir: snapshotsDir, date: day, backfill_days: backfillDays })
    try {
      await recordBuild(snapshotsDir, day, () => buildSnapshot({ ...settings, date: day, backfillDays }))
    } catch (error) {
      // the last good snapshot keeps serving; with none, there is nothing to serve
      if (currentBuildDate(snapshotsDir) === null) throw error
      log.error('start.build_failed', { error: error instanceof Error ? error.message : String(error), serving: 'the last published snapshot' })
    }
  } else {
    log.info('start.build_skipped', { reason: 'current snapshot is of that day or later', date: day, current: built })
  }
  const services = await createServices(storageConfigFromEnv())
  await ensureDemoKey(services)
  await serve(services)
}

/** On a fresh install: one account on the default plan and one key, printed once (only its hash is stored). */
async function ensureDemoKey(services: AccessServices): Promise<void> {
  const accounts = await services.admin.listAccounts()
  if (accounts.length > 0) {
    process.stdout.write(
      `API accounts exist already. A new key: npm run keys -- create-key --user ${accounts[0].userId} --name <name>\n`,
    )
    return
  }
  const account = await services.admin.createAccount()
  const { key } = await services.admin.createKey(account.userId, 'demo')
  process.stdout.write(
    `Demo account ${account.userId} created. Its API key (shown only now, store it):\n\n  ${key}\n\n` +
      `Try: curl -H "X-API-Key: <key>" "http://${process.env.HOST || '127.0.0.1'}:${process.env.PORT || 3000}/api/v1/get_categories"\n`,
  )
}

main().catch((error) => {
  log.error('start.failed', { error: error instanceof Error ? error.message : String(error) })
  process.exit(1)
})
