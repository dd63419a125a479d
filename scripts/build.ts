/**
 * Nightly build CLI:
 * `npm run build -- --raw DIR --date YYYY-MM-DD [--snapshots DIR] [--state DIR] [--keep N] [--backfill N]
 * [--lookups DIR] [--rebuild] [--prune-raw]`.
 * Defaults (pipeline/build-settings.ts): raw RAW_DIR or `raw`, snapshots SNAPSHOTS_DIR or `snapshots`, state STATE_DIR
 * or `<snapshots>/state`, keep SNAPSHOT_KEEP or 7, lookups `<DATA_DIR>/lookups` (where the server records them),
 * date = today (UTC): a nightly cron names the day that just ended. The build reads the state of the day before and `<raw>/<date>/`
 * (raw days missed since the last build are replayed first); `--rebuild` folds every raw day from scratch, as does a
 * first build or a raw folder in the single-folder layout (the one-time import of history). `--prune-raw` deletes
 * the raw day folders before the date once the snapshot is published (they are folded into the state).
 * Every build records its outcome in `<snapshots>/last-build.json` (pipeline/build-status.ts) for monitoring.
 * Exits 1 with the file, row and reason when the raw input is rejected, or the audit and sample rows when an audit
 * fails; `snapshots/current` is then untouched.
 */
import { parseArgs } from 'node:util'
import { buildSnapshot } from '../pipeline/build.ts'
import { log } from '../log/logger.ts'
import { recordBuild } from '../pipeline/build-status.ts'
import { buildSettingsFromEnv } from '../pipeline/build-settings.ts'

const defaults = buildSettingsFromEnv()

const { values } = parseArgs({
  options: {
    raw: { type: 'string', default: defaults.rawDir },
    snapshots: { type: 'string', default: defaults.snapshotsDir },
    state: { type: 'string', default: defaults.stateDir },
    rebuild: { type: 'boolean', default: false },
    'prune-raw': { type: 'boolean', default: false },
    date: { type: 'string', default: new Date().toISOString().slice(0, 10) },
    keep: { type: 'string', default: String(defaults.keep) },
    backfill: { type: 'string', default: '0' },
    lookups: { type: 'string', default: defaults.lookupsDir },
  },
  allowNegative: true,
})

function positiveInt(name: string, text: string): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a non-negative integer, got ${text}`)
    process.exit(2)
  }
  return n
}

if (!/^\d{4}-\d{2}-\d{2}$/.test(values.date) || Number.isNaN(Date.parse(`${values.date}T00:00:00Z`))) {
  console.error(`--date must be YYYY-MM-DD, got ${values.date}`)
  process.exit(2)
}

try {
  const result = await recordBuild(values.snapshots, values.date, () => buildSnapshot({
    rawDir: values.raw,
    snapshotsDir: values.snapshots,
    stateDir: values.state,
    rebuild: values.rebuild,
    pruneRaw: values['prune-raw'],
    date: values.date,
    keep: positiveInt('keep', values.keep),
    backfillDays: positiveInt('backfill', values.backfill),
    lookupsDir: values.lookups,
  }))
  console.log(`published ${result.snapshotId} → ${result.dir}`)
} catch (error) {
  const fields = error instanceof Error ? { ...error, message: error.message, name: error.name } : { error }
  log.error('build.failed', fields)
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
