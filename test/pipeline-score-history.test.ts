/**
 * The models that read the score history, on a hand-made state: score_history (pipeline/sql/history/
 * score_history.sql), every change of score from the first scored date of the window, and, given `history_since`,
 * only the rows of the parts a build writes (those from that day on, and the month of the table's first row); and
 * int_score_ago, each account's score 1, 7 and 30 days before. Both read the state's latest keyframe before the
 * dates they need and the changes after it.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { queryRows, runSqlFile, setVariables } from '../pipeline/duckdb.ts'

/** The state's keyframes (`keyframes`: date → the [platform_id, score] rows of that date's keyframe). */
async function insertKeyframes(conn: DuckDBConnection, keyframes: Record<string, [number, number][]>): Promise<void> {
  for (const [date, scores] of Object.entries(keyframes)) {
    for (const [id, score] of scores) await conn.run(`insert into state_score_keyframes values (DATE '${date}', ${id}, ${score})`)
  }
}

/**
 * The model's rows on a state of scored dates and changes of score, with this night's scores (2026-11-22), and the
 * state's keyframes (`keyframes`: date → the scores of that date's keyframe).
 */
async function modelRows(since: string | null, keyframes: Record<string, [number, number][]> = {}): Promise<string[]> {
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
      create table state_score_keyframes (score_date date, platform_id ubigint, platform_score double);
      create table int_score_rows (score_date date, platform_id ubigint, platform_score double);
      create table int_scores (platform_id ubigint, platform_score double);
      insert into int_scores values (1, 30), (3, 8), (4, 1);`)
    await insertKeyframes(conn, keyframes)
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

/** The keyframes the state would hold on these dates: every account's score > 0 as of the date. */
const KEYFRAMES: Record<string, [number, number][]> = {
  '2026-09-20': [[1, 10], [3, 7]],
  '2026-10-20': [[1, 20], [2, 5], [3, 7]],
  '2026-11-10': [[1, 30], [3, 7]],
}

ScoreHistory('keyframes give the same rows, with or without carried parts', async () => {
  for (const since of [null, '2026-11-22', '2026-11-08']) {
    const expected = await modelRows(since)
    for (const date of Object.keys(KEYFRAMES)) assert.equal(await modelRows(since, { [date]: KEYFRAMES[date] }), expected, `${since} ${date}`)
    assert.equal(await modelRows(since, KEYFRAMES), expected, `${since}, every keyframe`)
  }
})

ScoreHistory('tonight\'s scores are compared with the latest keyframe and the changes after it, not with the rows before it', async () => {
  // a keyframe that differs from the rows before it (account 1 at 31, account 3 gone) is what tonight is compared with
  assert.equal((await modelRows(null, { '2026-11-10': [[1, 31]] })).filter((row) => row.startsWith('2026-11-22')), [
    '2026-11-22 1 30', '2026-11-22 3 8', '2026-11-22 4 1',
  ])
})

ScoreHistory.run()

/** int_score_ago's scores (`id:1d/7d/30d`) on build date 2026-11-22, with the state's `keyframes` as above. */
async function scoresAgo(keyframes: Record<string, [number, number][]> = {}): Promise<string[]> {
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  try {
    await conn.run(`
      create table int_accounts as select unnest([1, 2, 3])::ubigint as platform_id;
      create table state_score_dates as
        select unnest([DATE '2026-10-20', DATE '2026-10-23', DATE '2026-11-15', DATE '2026-11-21']) as score_date;
      create table state_score_history (score_date date, platform_id ubigint, platform_score double);
      insert into state_score_history values ('2026-10-20', 1, 10), ('2026-10-20', 2, 5), ('2026-11-15', 1, 12), ('2026-11-21', 2, 0);
      create table state_score_keyframes (score_date date, platform_id ubigint, platform_score double);
      create table int_score_rows (score_date date, platform_id ubigint, platform_score double);`)
    await insertKeyframes(conn, keyframes)
    await setVariables(conn, { build_date: { date: '2026-11-22' } })
    await runSqlFile(conn, 'staging/stg_score_history.sql')
    await runSqlFile(conn, 'intermediate/int_score_ago.sql')
    const rows = await queryRows(conn, `select platform_id, string_agg(score_ago::varchar, '/' order by days) as ago from int_score_ago group by 1 order by 1`)
    return rows.map((r) => `${r.platform_id}:${r.ago}`)
  } finally {
    conn.closeSync()
    instance.closeSync()
  }
}

const ScoreAgo = suite('score ago model')

ScoreAgo('the score 1, 7 and 30 days before: the last change on or before each, from the keyframe before the earliest', async () => {
  const expected = ['1:12.0/12.0/10.0', '2:0.0/5.0/5.0', '3:0.0/0.0/0.0']
  assert.equal(await scoresAgo(), expected)
  assert.equal(await scoresAgo({ '2026-10-20': [[1, 10], [2, 5]] }), expected)
  assert.equal(await scoresAgo({ '2026-10-20': [[1, 10], [2, 5]], '2026-11-15': [[1, 12], [2, 5]] }), expected)
  // the keyframe on or before the 30-day look-back (10-23) is read in place of the rows before it
  assert.equal(await scoresAgo({ '2026-10-22': [[1, 11]] }), ['1:12.0/12.0/11.0', '2:0.0/0.0/0.0', '3:0.0/0.0/0.0'])
})

ScoreAgo.run()

/**
 * The keyframe dates the state holds after committing the scores of `buildDate` (sql/state/apply_scores.sql) on a
 * state with keyframes on `before`.
 */
async function keyframesAfter(before: string[], buildDate: string): Promise<string[]> {
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  try {
    await conn.run(`attach ':memory:' as st`)
    await runSqlFile(conn, 'state/schema.sql')
    await setVariables(conn, { build_date: { date: buildDate }, state_date: { date: buildDate } })
    await conn.run('set variable state_rebuild = false')
    await runSqlFile(conn, 'state/state_views.sql')
    for (const date of before) await conn.run(`insert into st.score_keyframes values (DATE '${date}', 1, 5)`)
    await conn.run(`create table int_score_rows as select DATE '${buildDate}' as score_date, 1::ubigint as platform_id, 5.0 as platform_score, 1 as rank`)
    await runSqlFile(conn, 'staging/stg_score_history.sql')
    await runSqlFile(conn, 'state/apply_scores.sql')
    return (await queryRows(conn, 'select distinct score_date::varchar as d from st.score_keyframes order by 1')).map((r) => String(r.d))
  } finally {
    conn.closeSync()
    instance.closeSync()
  }
}

const Keyframes = suite('score keyframes')

Keyframes('one every 7 days; kept, the last 45 days\' and the last of each month for 410 days', async () => {
  // weekly keyframes from 2025-09-05 to 2026-11-13
  const weekly: string[] = []
  for (let day = Date.UTC(2025, 8, 5); day <= Date.UTC(2026, 10, 13); day += 7 * 86_400_000) weekly.push(new Date(day).toISOString().slice(0, 10))
  const kept = await keyframesAfter(weekly, '2026-11-19')
  const lastOfMonth = (month: string) => weekly.filter((d) => d.startsWith(month)).at(-1)!
  // 410 days before 2026-11-19 is 2025-10-05: September 2025's last keyframe goes; 45 days before is 2026-10-05
  const months = ['2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09']
  assert.equal(kept, [...months.map(lastOfMonth), ...weekly.filter((d) => d >= '2026-10-05')])
  // no new keyframe within 7 days of the last one; one when it is 7 days old
  assert.not.ok(kept.includes('2026-11-19'))
  assert.equal((await keyframesAfter(['2026-11-13'], '2026-11-20')), ['2026-11-13', '2026-11-20'])
  assert.equal((await keyframesAfter([], '2026-11-20')), ['2026-11-20'])
})

Keyframes.run()
