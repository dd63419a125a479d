/**
 * The score history's model (pipeline/sql/history/score_history.sql) on a hand-made state: every change of score
 * from the first scored date of the window, and, given `history_since`, only the rows of the parts a build writes
 * (those from that day on, and the month of the table's first row).
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { DuckDBInstance } from '@duckdb/node-api'
import { queryRows, runSqlFile, setVariables } from '../pipeline/duckdb.ts'

/** The model's rows on a state of scored dates and changes of score, with this night's scores (2026-11-22). */
async function modelRows(since: string | null): Promise<string[]> {
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  try {
    await conn.run(`
      create table state_score_dates as
        select unnest([DATE '2026-09-20', DATE '2026-10-05', DATE '2026-10-20', DATE '2026-11-03', DATE '2026-11-10']) as score_date;
      create table state_score_history (score_date date, platform_id ubigint, platform_score double);
      insert into state_score_history values
        ('2026-09-20', 1, 10), ('2026-10-05', 1, 20), ('2026-11-03', 1, 30),
        ('2026-10-20', 2, 5), ('2026-11-10', 2, 0),
        ('2026-09-20', 3, 7);
      create table int_score_rows (score_date date, platform_id ubigint, platform_score double);
      create table int_scores (platform_id ubigint, platform_score double);
      insert into int_scores values (1, 30), (3, 8), (4, 1);`)
    await setVariables(conn, { build_date: { date: '2026-11-22' } })
    await conn.run(`set variable history_since = ${since ? `DATE '${since}'` : 'NULL::DATE'}`)
    await runSqlFile(conn, 'staging/stg_score_history.sql')
    await runSqlFile(conn, 'history/score_history.sql')
    const rows = await queryRows(conn, `select platform_id, date::varchar as date, platform_score, day::varchar as day from score_history order by date, platform_id`)
    for (const row of rows) assert.is(row.day, row.date)
    return rows.map((r) => `${r.date} ${r.platform_id} ${r.platform_score}`)
  } finally {
    conn.closeSync()
    instance.closeSync()
  }
}

const ScoreHistory = suite('score history model')

ScoreHistory('every change of score from the first scored date: the scores then, the state\'s changes, tonight\'s changes', async () => {
  assert.equal(await modelRows(null), [
    '2026-09-20 1 10', '2026-09-20 3 7', // the first date: every account's score then
    '2026-10-05 1 20', '2026-10-20 2 5', '2026-11-03 1 30', '2026-11-10 2 0', // the state's changes
    '2026-11-22 3 8', '2026-11-22 4 1', // tonight: 3 changed, 4 is new; 1 unchanged
  ])
})

ScoreHistory('a night leaves out the rows of the parts it carries, but those of the month of the first row', async () => {
  // the parts before the week of the 22nd are carried: November's 1st and 8th weeks are left out, September's
  // first date and the month after it (October, which holds the table's first change after it) are kept
  assert.equal(await modelRows('2026-11-22'), [
    '2026-09-20 1 10', '2026-09-20 3 7', '2026-10-05 1 20', '2026-10-20 2 5', '2026-11-22 3 8', '2026-11-22 4 1',
  ])
  // a part that cannot be linked (the week of the 8th): its rows come back
  assert.equal(await modelRows('2026-11-08'), [
    '2026-09-20 1 10', '2026-09-20 3 7', '2026-10-05 1 20', '2026-10-20 2 5', '2026-11-10 2 0', '2026-11-22 3 8', '2026-11-22 4 1',
  ])
})

ScoreHistory.run()
