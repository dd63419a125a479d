/**
 * `npm run sql` (`tsx scripts/sql.ts`) finds the snapshots where the server does: `--snapshots DIR`, else
 * `SNAPSHOTS_DIR`, else `./snapshots`. Each case runs the real command from a folder that has no `snapshots/`.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildSnapshot } from '../pipeline/build.ts'
import { BUILD_DATE, baseRaw, tempDir, writeRaw } from './_fixtures.ts'

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
const snapshotsDir = path.join(tempDir('sql-cli'), 'elsewhere')
const built = (async () => {
  const raw = await writeRaw(tempDir('sql-cli-raw'), baseRaw())
  return buildSnapshot({ rawDir: raw, snapshotsDir, date: BUILD_DATE })
})()

const QUERY = "select username from accounts where username in ('VcOne', 'VcTwo') order by 1"

/** `tsx scripts/sql.ts ...args` run from an empty folder, with `env` over the test's environment minus SNAPSHOTS_DIR. */
function sql(args: string[], env: Record<string, string> = {}) {
  const { SNAPSHOTS_DIR: _, ...inherited } = process.env
  return spawnSync(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'scripts/sql.ts'), ...args], {
    cwd: tempDir('sql-cli-cwd'),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...inherited, LOG_LEVEL: 'error', ...env },
  })
}

const Cli = suite('sql cli')

Cli('sql :: SNAPSHOTS_DIR alone names the folder whose current snapshot is queried', async () => {
  await built
  const run = sql([QUERY], { SNAPSHOTS_DIR: snapshotsDir })
  assert.is(run.status, 0, run.stderr)
  const lines = run.stdout.trim().split('\n').map((l) => l.trim())
  assert.is(lines[0], 'username')
  assert.equal(lines.slice(2), ['VcOne', 'VcTwo', '(2 rows)'])
})

Cli('sql :: without either, ./snapshots is used (and its absence is a clear error)', async () => {
  await built
  const run = sql([QUERY])
  assert.is(run.status, 1)
  assert.match(run.stderr, /no snapshot at snapshots\/current: run npm run build first/)
})

Cli('sql :: --snapshots wins over SNAPSHOTS_DIR', async () => {
  await built
  const missing = path.join(tempDir('sql-cli-missing'), 'none')
  const chosen = sql(['--snapshots', snapshotsDir, QUERY], { SNAPSHOTS_DIR: missing })
  assert.is(chosen.status, 0, chosen.stderr)
  assert.ok(chosen.stdout.includes('(2 rows)'), chosen.stdout)
  const overridden = sql(['--snapshots', missing, QUERY], { SNAPSHOTS_DIR: snapshotsDir })
  assert.is(overridden.status, 1)
  assert.ok(overridden.stderr.includes(path.join(missing, 'current')), overridden.stderr)
})

Cli('sql :: a result of many rows prints whole', async () => {
  await built
  const run = sql(['--snapshots', snapshotsDir, 'select range as n from range(200000)'])
  assert.is(run.status, 0, run.stderr)
  const lines = run.stdout.trim().split('\n')
  assert.equal([lines[0].trim(), lines[2].trim(), lines.at(-2)?.trim(), lines.at(-1)], ['n', '0', '199999', '(200000 rows)'])
})

Cli.run()
