/**
 * Analyst access: every example query of docs/snapshot.md and every `npm run sql -- "..."` line of the README runs
 * over a fixture snapshot and returns rows, and
 * `npm run sql` prints a table with one view per snapshot file, one per history table and the views derived from them.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { DuckDBInstance } from '@duckdb/node-api'
import { buildSnapshot } from '../pipeline/build.ts'
import { HISTORY_TABLES } from '../pipeline/history-tables.ts'
import { MARTS } from '../pipeline/models.ts'
import { createSnapshotViews, DERIVED_VIEWS, openSnapshotSql } from '../pipeline/snapshot-sql.ts'
import { BUILD_DATE, baseRaw, tempDir, writeRaw } from './_fixtures.ts'

const snapshotsDir = tempDir('sql-snapshots')
const built = (async () => {
  const raw = await writeRaw(tempDir('sql-raw'), baseRaw())
  return buildSnapshot({ rawDir: raw, snapshotsDir, date: BUILD_DATE, backfillDays: 7 })
})()

const doc = fs.readFileSync(new URL('../docs/snapshot.md', import.meta.url), 'utf8')
const readme = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8')
const docExamples = [...doc.slice(doc.indexOf('## Example queries')).matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1].trim())
const readmeExamples = [...readme.matchAll(/^npm run sql -- "([^"]+)"$/gm)].map((m) => m[1])
const examples = [...docExamples, ...readmeExamples]

const Sql = suite('sql')

Sql('sql :: the snapshot doc and the README document example queries', () => {
  assert.ok(docExamples.length >= 8, `found ${docExamples.length} in docs/snapshot.md`)
  assert.ok(readmeExamples.length >= 3, `found ${readmeExamples.length} in README.md`)
})

for (const [i, query] of examples.entries()) {
  Sql(`sql :: documented query ${i + 1} runs and returns rows (${query.split('\n')[0].slice(0, 50)})`, async () => {
    await built
    const snapshot = await openSnapshotSql(snapshotsDir)
    try {
      const result = await snapshot.query(query)
      assert.ok(result.rows.length > 0, query)
    } finally {
      snapshot.close()
    }
  })
}

Sql('sql :: score_history_daily holds every scored date; on the build date, the scores > 0 of accounts.parquet', async () => {
  await built
  const snapshot = await openSnapshotSql(snapshotsDir)
  try {
    const dates = await snapshot.query(`select distinct date::varchar from score_history_daily order by 1`)
    const scored = await snapshot.query(`select date::varchar from score_dates order by 1`)
    assert.equal(dates.rows, scored.rows)
    assert.is(scored.rows.length, 8)
    const today = `select account_idx, platform_score, rank from score_history_daily where date = DATE '${BUILD_DATE}' order by 1`
    const accounts = `select account_idx, platform_score, rank from accounts where platform_score > 0 order by 1`
    assert.equal((await snapshot.query(today)).rows, (await snapshot.query(accounts)).rows)
  } finally {
    snapshot.close()
  }
})

Sql('sql :: npm run sql prints a table over one view per snapshot file and the derived views', async () => {
  await built
  const cli = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/sql.ts', '--snapshots', snapshotsDir, "select view_name from duckdb_views() where not internal order by 1"],
    { encoding: 'utf8' },
  )
  assert.is(cli.status, 0, cli.stderr)
  const lines = cli.stdout.trim().split('\n')
  assert.is(lines[0].trim(), 'view_name')
  const views = [...MARTS, ...HISTORY_TABLES.map((t) => t.name), ...Object.keys(DERIVED_VIEWS)].sort()
  assert.equal(lines.slice(2, -1).map((l) => l.trim()), views)
  assert.is(lines.at(-1), `(${views.length} rows)`)
})

Sql('sql :: npm run sql -- --views prints statements that give another DuckDB the same views and answers', async () => {
  await built
  const cli = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/sql.ts', '--views', '--snapshots', snapshotsDir], { encoding: 'utf8' })
  assert.is(cli.status, 0, cli.stderr)
  // one thread each, so that rows tied in a query's order come in the same order from both
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' })
  const own = await instance.connect()
  const ours = await instance.connect()
  try {
    await own.run(`set TimeZone = 'UTC'; create schema printed; use printed`)
    await own.run(cli.stdout)
    await ours.run(`set TimeZone = 'UTC'; create schema made; use made`)
    await createSnapshotViews(ours, fs.realpathSync(`${snapshotsDir}/current`))
    for (const query of examples) {
      assert.equal((await own.runAndReadAll(query)).getRowsJson(), (await ours.runAndReadAll(query)).getRowsJson(), query)
    }
  } finally {
    own.closeSync()
    ours.closeSync()
    instance.closeSync()
  }
})

Sql('sql :: --help prints the usage; an unknown flag is a usage error (exit 2, no stack trace)', () => {
  const help = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/sql.ts', '--help'], { encoding: 'utf8' })
  assert.is(help.status, 0)
  assert.match(help.stdout, /usage: npm run sql/)
  const wrong = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/sql.ts', '--bogus'], { encoding: 'utf8' })
  assert.is(wrong.status, 2)
  assert.match(wrong.stderr, /Unknown option '--bogus'/)
  assert.not.match(wrong.stderr, /\n\s+at /)
})

Sql.run()
