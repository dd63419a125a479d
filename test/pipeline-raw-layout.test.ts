/**
 * How a build reads the raw folder and the snapshots folder before it does any work (docs/raw-data.md,
 * docs/pipeline.md): day folders named by real dates, followed through symbolic links; a raw folder that mixes day
 * folders and files of its own is refused; `current` must be a symbolic link; the build CLI's usage errors.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { buildSnapshot } from '../pipeline/build.ts'
import { rawLayout } from '../pipeline/raw-days.ts'
import { baseRaw, BUILD_DATE, tempDir, writeDailyRaw } from './_fixtures.ts'
import { stderrOf } from './_capture.ts'

const Layout = suite('raw layout')
const raw = writeDailyRaw(tempDir('layout-raw'), baseRaw(), ['2026-11-20', '2026-11-21', BUILD_DATE])

/** A copy of the generated raw folder to change. */
async function copy(): Promise<string> {
  const dir = tempDir('layout-copy')
  fs.cpSync(await raw, dir, { recursive: true })
  return dir
}

Layout('dates :: a day folder named by an impossible date fails the build naming it', async () => {
  for (const name of ['2026-02-30', '2026-13-01']) {
    const dir = await copy()
    fs.mkdirSync(path.join(dir, name))
    assert.throws(() => rawLayout(dir), (error: Error) => error.message.includes(name) && /real date/.test(error.message), name)
  }
})

Layout('links :: a day folder that is a symbolic link to a folder is read like any other', async () => {
  const dir = await copy()
  const elsewhere = tempDir('layout-elsewhere')
  fs.renameSync(path.join(dir, '2026-11-21'), path.join(elsewhere, 'day'))
  fs.symlinkSync(path.join(elsewhere, 'day'), path.join(dir, '2026-11-21'))
  const layout = rawLayout(dir)
  assert.equal(layout.kind === 'daily' && layout.days, ['2026-11-20', '2026-11-21', BUILD_DATE])
})

Layout('others :: entries that are not day folders are not read, and a build names them in a warning', async () => {
  const dir = await copy()
  for (const name of ['20261121', `${BUILD_DATE}.partial`, '_notes', '.sync']) fs.mkdirSync(path.join(dir, name))
  fs.writeFileSync(path.join(dir, 'README.txt'), 'notes')
  const layout = rawLayout(dir)
  assert.equal(layout.kind === 'daily' && [layout.days, layout.ignored], [['2026-11-20', '2026-11-21', BUILD_DATE], [`${BUILD_DATE}.partial`, '20261121', 'README.txt']])
  const logged = await stderrOf(() => buildSnapshot({ rawDir: dir, snapshotsDir: tempDir('layout-others'), date: BUILD_DATE }))
  const warning = logged.split('\n').filter((line) => line.includes('"build.raw_ignored"')).map((line) => JSON.parse(line))
  assert.equal(warning.map((w) => w.ignored), [[`${BUILD_DATE}.partial`, '20261121', 'README.txt']])
})

Layout('mixed :: day folders beside raw files of the root are refused, the state and current untouched', async () => {
  const dir = await copy()
  const snapshots = tempDir('layout-mixed')
  const before = await buildSnapshot({ rawDir: dir, snapshotsDir: snapshots, date: '2026-11-21' })
  const refused = async (message: string) => {
    const error = await buildSnapshot({ rawDir: dir, snapshotsDir: snapshots, date: BUILD_DATE }).then(
      () => assert.unreachable('the build must fail'),
      (e: unknown) => e as Error,
    )
    assert.match(error!.message, message)
    assert.is(fs.readlinkSync(path.join(snapshots, 'current')), before.snapshotId)
  }
  const files = fs.readdirSync(path.join(dir, BUILD_DATE))
  for (const file of files) fs.copyFileSync(path.join(dir, BUILD_DATE, file), path.join(dir, file))
  await refused('holds both day folders and raw files of its own')
  // one stray file, not the accounts: refused too, naming it
  for (const file of files) fs.rmSync(path.join(dir, file))
  fs.copyFileSync(path.join(dir, BUILD_DATE, 'tags.parquet'), path.join(dir, 'tags.parquet'))
  await refused('holds both day folders and raw files of its own (tags.parquet)')
})

Layout('current :: a snapshots folder whose current is a real folder fails before any work', async () => {
  const snapshots = tempDir('layout-current')
  const first = await buildSnapshot({ rawDir: await raw, snapshotsDir: snapshots, date: '2026-11-21' })
  fs.rmSync(path.join(snapshots, 'current'))
  fs.cpSync(first.dir, path.join(snapshots, 'current'), { recursive: true })
  try {
    await buildSnapshot({ rawDir: await raw, snapshotsDir: snapshots, date: BUILD_DATE })
    assert.unreachable('the build must fail')
  } catch (error) {
    assert.match((error as Error).message, 'must be a symbolic link')
  }
  // nothing was built or committed: no folder of the date, the state still ends on 2026-11-21
  assert.equal(fs.readdirSync(snapshots).filter((name) => name.startsWith(BUILD_DATE)), [])
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  await conn.run(`attach '${path.join(snapshots, 'state', 'state.duckdb')}' as st (read_only)`)
  const [last] = (await conn.runAndReadAll('select max(day)::varchar as day from st.days')).getRowObjectsJson()
  conn.closeSync()
  instance.closeSync()
  assert.is(last.day, '2026-11-21')
})

Layout('cli :: flag and environment mistakes exit 2 with a message and no stack trace', async () => {
  const cases: [string[], Record<string, string>, RegExp][] = [
    [['--bogus'], {}, /Unknown option '--bogus'/],
    [['--keep'], {}, /--keep/],
    [['--backfill=-3'], {}, /--backfill must be an integer ≥ 0, got -3/],
    [['--backfill', '3000'], {}, /--backfill must be at most 365, got 3000/],
    [['--keep', '0x10'], {}, /--keep must be an integer ≥ 1, got 0x10/],
    [['--date', '2026-02-30'], {}, /--date must be a real date YYYY-MM-DD, got 2026-02-30/],
    [[], { SNAPSHOT_KEEP: 'abc' }, /SNAPSHOT_KEEP must be a positive integer/],
    [[], { PIPELINE_MEMORY_LIMIT: 'bogus' }, /PIPELINE_MEMORY_LIMIT=bogus/],
    [[], { PIPELINE_THREADS: 'many' }, /PIPELINE_THREADS=many/],
  ]
  for (const [args, env, message] of cases) {
    const cli = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--raw', await raw, '--snapshots', tempDir('layout-cli'), ...args], {
      encoding: 'utf8',
      env: { ...process.env, LOG_LEVEL: 'error', ...env },
    })
    assert.is(cli.status, 2, `${args.join(' ')}: ${cli.stderr}`)
    assert.match(cli.stderr, message)
    assert.not.match(cli.stderr, /\n\s+at /, 'no stack trace')
    // off a terminal, stderr is the log: JSON lines only, the usage among the fields
    const lines = cli.stderr.trim().split('\n').map((line) => JSON.parse(line))
    assert.equal(lines.map((l) => [l.event, typeof l.usage]), [['build.usage', 'string']])
  }
  const help = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--help'], { encoding: 'utf8' })
  assert.is(help.status, 0)
  assert.match(help.stdout, /^usage: npm run build/)
})

Layout('cli :: a build refused because another one runs exits 3 and leaves last-build.json to that build', async () => {
  const snapshots = tempDir('layout-locked')
  const status = JSON.stringify({ outcome: 'published', snapshot_id: 'earlier' })
  fs.writeFileSync(path.join(snapshots, 'last-build.json'), status)
  // a live process holds the lock: this test's own
  fs.writeFileSync(path.join(snapshots, '.build.lock'), String(process.pid))
  const cli = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--raw', await raw, '--snapshots', snapshots, '--date', BUILD_DATE], {
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'error' },
  })
  assert.is(cli.status, 3)
  assert.match(cli.stderr, `"event":"build.locked","message":"another build (pid ${process.pid}) is running`)
  for (const line of cli.stderr.trim().split('\n')) assert.ok(JSON.parse(line).event, line)
  assert.is(fs.readFileSync(path.join(snapshots, 'last-build.json'), 'utf8'), status)
})

Layout.run()
