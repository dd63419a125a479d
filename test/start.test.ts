/**
 * The main command, as a user runs it: `npm start` on a fresh machine generates raw data, builds the snapshot of the
 * day that just ended,
 * creates a demo account whose key it prints once, serves the API, and stops cleanly on SIGTERM.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { buildSnapshot } from '../pipeline/build.ts'
import { addDays } from '../pipeline/plan.ts'
import { BUILD_DATE, baseRaw, daysBetween, tempDir, writeDailyRaw } from './_fixtures.ts'

const Start = suite('npm start')

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
    probe.on('error', reject)
  })
}

Start('start :: fresh install generates, builds, prints a working key once, serves, and stops on SIGTERM', async () => {
  const home = tempDir('start')
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: {
      ...process.env,
      RAW_DIR: path.join(home, 'raw'),
      DEMO_SCALE: 'tiny',
      SNAPSHOTS_DIR: path.join(home, 'snapshots'),
      DATA_DIR: path.join(home, 'data'),
      HOST: '127.0.0.1',
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  try {
    const base = `http://127.0.0.1:${port}`
    const deadline = Date.now() + 90_000
    let health: Record<string, unknown> | null = null
    while (!health && Date.now() < deadline) {
      health = (await fetch(`${base}/healthz`).then((r) => (r.ok ? r.json() : null), () => null)) as Record<string, unknown> | null
      if (!health) await new Promise((r) => setTimeout(r, 250))
    }
    assert.ok(health, `server never became ready:\n${stderr.slice(-2000)}`)
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
    assert.is(health!.snapshot_date, yesterday, 'the day that just ended: nothing in it is later than now')
    assert.ok(fs.existsSync(path.join(home, 'raw', yesterday, 'accounts.parquet')), 'raw data generated (a folder per day)')
    assert.ok(fs.existsSync(path.join(home, 'snapshots', 'current', 'manifest.json')), 'snapshot published')
    assert.ok(fs.existsSync(path.join(home, 'snapshots', 'last-build.json')), 'the build recorded its outcome')
    // the first snapshot also scores the 30 days before it: score history and diffs from the start
    const manifest = JSON.parse(fs.readFileSync(path.join(home, 'snapshots', 'current', 'manifest.json'), 'utf8'))
    assert.is(manifest.files.find((f: { file: string }) => f.file === 'score_dates.parquet').rows, 31)

    const keys = stdout.match(/\bask_[A-Za-z0-9_-]{43}\b/g) ?? []
    assert.is(keys.length, 1, 'the demo key is printed exactly once')
    const key = keys[0]!
    const answer = (await fetch(`${base}/api/v1/get_categories`, { headers: { 'X-API-Key': key } }).then((r) => r.json())) as {
      success: boolean
      total: number
    }
    assert.is(answer.success, true)
    assert.is(answer.total, 8)
    assert.not.ok(stderr.includes(key), 'the key never reaches the logs')
  } finally {
    child.kill('SIGTERM')
  }
  assert.is(await exited, 0, stderr.slice(-2000))
})

/**
 * `npm start` on an existing install (`raw` and the snapshots folder under `home`) until it answers `/healthz`; then
 * `check` with the health answer and the log so far, and a stop that must exit 0.
 */
async function startedOn(home: string, raw: string, check: (health: Record<string, unknown>, stderr: string) => void): Promise<void> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: { ...process.env, RAW_DIR: raw, SNAPSHOTS_DIR: path.join(home, 'snapshots'), DATA_DIR: path.join(home, 'data'), HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  child.stdout.resume()
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  try {
    const deadline = Date.now() + 90_000
    let health: Record<string, unknown> | null = null
    while (!health && Date.now() < deadline && child.exitCode === null) {
      health = (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => (r.ok ? r.json() : null), () => null)) as Record<string, unknown> | null
      if (!health) await new Promise((r) => setTimeout(r, 250))
    }
    assert.ok(health, `server never became ready:\n${stderr.slice(-2000)}`)
    check(health!, stderr)
  } finally {
    child.kill('SIGTERM')
  }
  assert.is(await exited, 0, stderr.slice(-2000))
}

Start('start :: a build of the day that just ended that fails leaves the last published snapshot serving', async () => {
  const home = tempDir('start-failed')
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
  const raw = await writeDailyRaw(path.join(home, 'raw'), baseRaw(), daysBetween('2026-11-10', BUILD_DATE))
  await buildSnapshot({ rawDir: raw, snapshotsDir: path.join(home, 'snapshots'), date: BUILD_DATE })
  // yesterday's folder arrives broken
  await writeDailyRaw(raw, baseRaw(), [yesterday])
  fs.writeFileSync(path.join(raw, yesterday, 'tweets.parquet'), 'not parquet')
  await startedOn(home, raw, (health, stderr) => {
    assert.is(health.snapshot_date, BUILD_DATE)
    assert.match(stderr, '"event":"start.build_failed"')
    assert.match(stderr, `${yesterday}/tweets.parquet`)
    const status = JSON.parse(fs.readFileSync(path.join(home, 'snapshots', 'last-build.json'), 'utf8'))
    assert.is(status.outcome, 'failed')
  })
})

Start('start :: a snapshot of a later day than the one that just ended is served as it is, never moved back', async () => {
  const home = tempDir('start-later')
  const today = new Date().toISOString().slice(0, 10)
  const raw = await writeDailyRaw(path.join(home, 'raw'), baseRaw(), daysBetween(addDays(today, -3), today))
  await buildSnapshot({ rawDir: raw, snapshotsDir: path.join(home, 'snapshots'), date: today })
  await startedOn(home, raw, (health, stderr) => {
    assert.is(health.snapshot_date, today)
    assert.match(stderr, '"event":"start.build_skipped"')
    assert.not.match(stderr, '"event":"build.start"')
  })
})

Start.run()
