/**
 * Publication and history: deterministic rebuilds, the atomic `current` symlink, keeping the last N snapshots,
 * published folders left untouched, and the score history kept in the state by every build and by the backfill.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { buildSnapshot } from '../pipeline/build.ts'
import { DuckDBInstance } from '@duckdb/node-api'
import { MARTS } from '../pipeline/models.ts'
import { BUILD_DATE, baseRaw, daysBetween, readParquet, tempDir, writeDailyRaw, writeRaw } from './_fixtures.ts'
import { buildKilledAt } from './_killed-build.ts'
import { assertSameMarts, copyNights, marts } from './_state.ts'

const rawDir = writeRaw(tempDir('publish-raw'), baseRaw())

async function allRows(dir: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {}
  for (const mart of MARTS) out[mart] = await readParquet(path.join(dir, `${mart}.parquet`))
  return out
}

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')

const Publish = suite('publish')

Publish('publish :: rebuilding a date from the same raw gives the same rows in a new folder', async () => {
  const snapshots = tempDir('publish-snapshots')
  const first = await buildSnapshot({ rawDir: await rawDir, snapshotsDir: snapshots, date: BUILD_DATE })
  const second = await buildSnapshot({ rawDir: await rawDir, snapshotsDir: snapshots, date: BUILD_DATE })
  assert.is.not(first.snapshotId, second.snapshotId)
  assert.ok(first.snapshotId.startsWith(`${BUILD_DATE}_`))
  assert.equal(await allRows(second.dir), await allRows(first.dir))
  assert.is(fs.readlinkSync(path.join(snapshots, 'current')), second.snapshotId)
  // the first folder was not written again: its files still match its manifest
  for (const f of first.manifest.files) assert.is(sha256(path.join(first.dir, f.file)), f.sha256, f.file)
})

Publish('publish :: current is a relative symlink swapped by rename; only the last N folders are kept', async () => {
  const snapshots = tempDir('publish-keep')
  const ids: string[] = []
  for (let i = 0; i < 3; i++) {
    ids.push((await buildSnapshot({ rawDir: await rawDir, snapshotsDir: snapshots, date: BUILD_DATE, keep: 2 })).snapshotId)
  }
  assert.is(fs.readlinkSync(path.join(snapshots, 'current')), ids[2])
  const left = fs.readdirSync(snapshots).filter((n) => /^\d{4}-/.test(n)).sort()
  assert.equal(left, [ids[1], ids[2]].sort())
  assert.ok(fs.existsSync(path.join(snapshots, 'current', 'accounts.parquet')))
})

const History = suite('score history')

/** Rows of `sql` run on the state of `snapshots` (`st`), opened read-only unless `write`. */
async function queryState(snapshots: string, sql: string, write = false) {
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  try {
    await conn.run(`attach '${path.join(snapshots, 'state', 'state.duckdb')}' as st ${write ? '' : '(read_only)'}`)
    return (await conn.runAndReadAll(sql)).getRowObjectsJson()
  } finally {
    conn.closeSync()
    instance.closeSync()
  }
}

/**
 * The scores > 0 of one date from the state's sparse score history (each account's last row on or before it), with
 * the ranks the state keeps for that date (NULL once dropped).
 */
const historyOf = (snapshots: string, date: string) =>
  queryState(snapshots, `select h.platform_id, h.platform_score, r.rank from (
      select * from st.score_history where score_date <= DATE '${date}'
      qualify row_number() over (partition by platform_id order by score_date desc) = 1) h
    left join st.score_ranks r on r.platform_id = h.platform_id and r.score_date = DATE '${date}'
    where h.platform_score > 0 order by h.platform_id`)

const scoredDates = async (snapshots: string) =>
  (await queryState(snapshots, 'select score_date::varchar as d from st.score_dates order by 1')).map((r) => String(r.d))

History('history :: every build keeps its scores > 0 in the state', async () => {
  const snapshots = tempDir('history-build')
  const { dir } = await buildSnapshot({ rawDir: await rawDir, snapshotsDir: snapshots, date: BUILD_DATE })
  const history = await historyOf(snapshots, BUILD_DATE)
  const accounts = await readParquet(path.join(dir, 'accounts.parquet'), 'select platform_id, platform_score, rank from t where platform_score > 0 order by platform_id')
  assert.equal(history, accounts)
})

/**
 * A build of BUILD_DATE that backfills the 7 days before it, built once: the tests that only read it read its
 * folder, the others a copy (copyNights).
 */
let backfilledBuild: Promise<{ snapshots: string; dir: string }> | undefined
function backfilled() {
  backfilledBuild ??= (async () => {
    const snapshots = tempDir('history-backfill')
    const { dir } = await buildSnapshot({ rawDir: await rawDir, snapshotsDir: snapshots, date: BUILD_DATE, backfillDays: 7 })
    return { snapshots, dir }
  })()
  return backfilledBuild
}

History('history :: backfill scores earlier dates from the scans as of each date and fills the look-backs', async () => {
  const { snapshots, dir } = await backfilled()
  assert.equal(await scoredDates(snapshots), ['15', '16', '17', '18', '19', '20', '21', '22'].map((d) => `2026-11-${d}`))

  // the backfilled 11-21 equals a build dated 11-21
  const direct = tempDir('history-direct')
  await buildSnapshot({ rawDir: await rawDir, snapshotsDir: direct, date: '2026-11-21' })
  const day = (root: string) => historyOf(root, '2026-11-21')
  assert.equal(await day(snapshots), await day(direct))

  const scores1d = Object.fromEntries((await day(snapshots)).map((r) => [r.platform_id, r.platform_score]))
  const accounts = await readParquet(path.join(dir, 'accounts.parquet'))
  for (const a of accounts) {
    assert.is(a.score_1d_ago, scores1d[a.platform_id as string] ?? 0, `score_1d_ago of ${a.username}`)
    assert.ok(a.score_7d_ago !== null && a.score_30d_ago === null)
  }
  // 11-15: VcOne had not yet followed SmallGem, so its score moved within the week
  const gem = accounts.find((a) => a.username === 'SmallGem')!
  assert.ok(gem.platform_score !== gem.score_7d_ago)

  const byId = Object.fromEntries(accounts.map((a) => [a.platform_id, a]))
  const items = await readParquet(path.join(dir, 'smart_follows.parquet'))
  for (const item of items) {
    const a = byId[item.platform_id as string]
    const ago = item.days === 1 ? a.score_1d_ago : item.days === 7 ? a.score_7d_ago : null
    const expected = ago === null ? 0 : Math.round(((a.platform_score as number) - (ago as number)) * 100) / 100
    assert.ok(Math.abs((item.platform_score_diff as number) - expected) < 1e-9, `${item.days}/${item.bucket}/${a.username}`)
  }
})

History('history :: the state and score_history keep a row only when a score changes, read over the scored dates', async () => {
  const { snapshots, dir } = await backfilled()
  const [{ repeated, rows, dense }] = await queryState(snapshots, `
    with h as (
      select *, lag(platform_score) over w as s0, lag(score_date) over w as d0
      from st.score_history window w as (partition by platform_id order by score_date))
    select count(*) filter (where d0 is not null and s0 = platform_score) as repeated,
      count(*) as rows,
      (select count(distinct platform_id) from st.score_history) * (select count(*) from st.score_dates) as dense
    from h`)
  assert.is(repeated, '0')
  assert.ok(Number(rows) < Number(dense), `${rows} rows, ${dense} account-dates`)
  const dates = await scoredDates(snapshots)
  assert.equal((await readParquet(path.join(dir, 'score_dates.parquet'), 'select date::varchar as d from t order by d')).map((r) => r.d), dates)
  const [mart] = await readParquet(historyParts(dir), `
    with h as (
      select *, lag(platform_score) over w as s0, lag(date) over w as d0
      from t window w as (partition by platform_id order by date))
    select count(*) filter (where d0 is not null and s0 = platform_score) as repeated,
      count(*) filter (where date::varchar not in (${dates.map((d) => `'${d}'`).join(', ')})) as unscored,
      count(*) as rows
    from h`)
  assert.equal([mart.repeated, mart.unscored], ['0', '0'])
  assert.ok(Number(mart.rows) < Number(dense), `${mart.rows} rows, ${dense} account-dates`)
  await assertScoresAsOf(dir, snapshots, dates)
})

/** Every part of a snapshot's score history (a glob). */
const historyParts = (dir: string) => path.join(dir, 'score_history', '*', 'data.parquet')

/**
 * The scores > 0 of one date read from a snapshot: each account's last row on or before it in the sparse
 * score_history parts, and its rank in that date's score_ranks part (NULL without one).
 */
function servedOn(dir: string, date: string) {
  const part = path.join(dir, 'score_ranks', `period=${date}`, 'data.parquet')
  const ranks = fs.existsSync(part) ? `read_parquet('${part}')` : '(select null::ubigint as platform_id, null::integer as rank limit 0)'
  return readParquet(historyParts(dir), `
    select h.platform_id, h.platform_score, r.rank from (
      select * from t where date <= DATE '${date}'
      qualify row_number() over (partition by platform_id order by date desc) = 1) h
    left join ${ranks} r on r.platform_id = h.platform_id
    where h.platform_score > 0 order by h.platform_id`)
}

/** Each scored date's scores and ranks read from the snapshot equal the state's. */
async function assertScoresAsOf(dir: string, snapshots: string, dates: string[]) {
  for (const date of dates) assert.equal(await servedOn(dir, date), await historyOf(snapshots, date), date)
}

History('history :: score_history covers the months from the 12th before the build date\'s (so score_dates\' 365 days), its first scored date holding the scores of then', async () => {
  const snapshots = copyNights((await backfilled()).snapshots, 'history-window')
  // 11-15..11-18 move before the window (2025-10-28..31) and 11-19 onto its first day (2025-11-01): the first scored
  // date of the window has rows of its own (accounts whose score moved on 11-19) and rows carried from before it
  await queryState(snapshots, `
    update st.score_history set score_date = score_date - 383 where score_date <= DATE '2026-11-19';
    update st.score_ranks set score_date = score_date - 383 where score_date <= DATE '2026-11-19';
    update st.score_dates set score_date = score_date - 383 where score_date <= DATE '2026-11-19';`, true)
  const { dir } = await buildSnapshot({ rawDir: await rawDir, snapshotsDir: snapshots, date: BUILD_DATE })
  const dates = (await scoredDates(snapshots)).filter((d) => d >= '2025-11-01')
  assert.equal(dates, ['2025-11-01', '2026-11-20', '2026-11-21', '2026-11-22'])
  // the scored dates of the last 365 days
  assert.equal((await readParquet(path.join(dir, 'score_dates.parquet'), 'select date::varchar as d from t order by d')).map((r) => r.d), dates.slice(1))
  assert.equal(await readParquet(historyParts(dir), `select min(date)::varchar as first from t`), [{ first: '2025-11-01' }])
  // the anchors' month, then weeks of the build date's month
  const parts = fs.readdirSync(path.join(dir, 'score_history')).sort()
  assert.ok(parts[0] === 'period=2025-11' && parts.slice(1).every((p) => /^period=2026-11-\d\d$/.test(p)), parts.join())
  await assertScoresAsOf(dir, snapshots, dates)
})

/**
 * A state of an earlier layout, made from a current one by `sql`, is converted when a build attaches it: a rerun of
 * the build date on it gives the state and the rows a rerun gives on the current one (a rerun rewinds the date, then
 * scores it again).
 */
async function assertConverted(name: string, sql: string) {
  const reference = copyNights((await backfilled()).snapshots, `history-${name}-reference`)
  const converted = tempDir(`history-${name}-state`)
  fs.cpSync(path.join(reference, 'state'), path.join(converted, 'state'), { recursive: true })
  await queryState(converted, sql, true)
  const tables = ['score_history', 'score_ranks', 'score_dates']
  const state = (snapshots: string) => Promise.all(tables.map((t) => queryState(snapshots, `select * from st.${t} order by all`)))
  const expected = await state(reference)
  const a = await buildSnapshot({ rawDir: await rawDir, snapshotsDir: reference, date: BUILD_DATE })
  const b = await buildSnapshot({ rawDir: await rawDir, snapshotsDir: converted, date: BUILD_DATE })
  assert.equal(await state(converted), expected)
  assertSameMarts(await marts(b.dir), await marts(a.dir))
}

History('history :: a state holding the dense score history (st.scores) is converted when a build attaches it', () =>
  assertConverted('dense', `
    create table st.scores as
      select d.score_date, h.platform_id, h.platform_score, r.rank
      from st.score_dates d
      join st.score_history h on h.score_date <= d.score_date
      left join st.score_ranks r on r.score_date = d.score_date and r.platform_id = h.platform_id
      qualify row_number() over (partition by d.score_date, h.platform_id order by h.score_date desc) = 1
        and h.platform_score > 0;
    drop table st.score_history;
    drop table st.score_ranks;`))

// the earlier layout: a row per account and scored date on which its score or its rank changed
History('history :: a state whose score history holds the ranks (st.score_history.rank) is converted when a build attaches it', () =>
  assertConverted('ranked', `
    create table st.ranked as
      with dense as (
        select d.score_date, a.platform_id, h.platform_score, r.rank
        from st.score_dates d
        cross join (select distinct platform_id from st.score_history) a
        asof join st.score_history h on h.platform_id = a.platform_id and h.score_date <= d.score_date
        left join st.score_ranks r on r.score_date = d.score_date and r.platform_id = a.platform_id)
      select score_date, platform_id, platform_score, rank from (
        select *, lag(platform_score) over w as s0, lag(rank) over w as r0, row_number() over w as n from dense
        window w as (partition by platform_id order by score_date))
      where n = 1 or s0 <> platform_score or r0 is distinct from rank;
    drop table st.score_history;
    drop table st.score_ranks;
    alter table st.ranked rename to score_history;`))

History('history :: snapshots show ranks for the 30 days ending on their date; the state keeps them 60, every score always', async () => {
  // the fixture's scans run up to 11-22; nothing new happens on the days after it, so scores carry on unchanged
  const raw = await writeDailyRaw(tempDir('history-ranks-raw'), baseRaw(), [...daysBetween('2026-11-01', BUILD_DATE), '2027-01-15', '2027-01-16'])
  const snapshots = tempDir('history-ranks')
  const first = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2027-01-15', backfillDays: 70 })
  // what each date's own build scores: the backfill scores each earlier date as a build dated then would
  const own = async (date: string) => {
    const { dir } = await buildSnapshot({ rawDir: raw, snapshotsDir: tempDir('history-ranks-own'), date })
    return readParquet(path.join(dir, 'accounts.parquet'), 'select platform_id, platform_score, rank from t where platform_score > 0 order by platform_id')
  }
  const served = servedOn
  const unranked = (rows: Record<string, unknown>[]) => rows.map((r) => ({ ...r, rank: null }))
  // 12-16 is 30 days before 01-15: before the window, the score of then without its rank; 12-17 opens the window
  assert.equal(await served(first.dir, '2026-12-16'), unranked(await own('2026-12-16')))
  assert.equal(await served(first.dir, '2026-12-17'), await own('2026-12-17'))
  assert.equal(await served(first.dir, '2026-11-12'), unranked(await own('2026-11-12')))
  assert.ok((await served(first.dir, '2026-11-12')).length > 0, 'accounts scored long before the window')

  // a night refused for its raw input drops nothing
  const scans = path.join(raw, '2027-01-16', 'follow_scans.parquet')
  const good = fs.readFileSync(scans)
  const stateRows = () => Promise.all(['score_history', 'score_ranks'].map((t) => queryState(snapshots, `select * from st.${t} order by all`)))
  const before = await stateRows()
  fs.writeFileSync(scans, good.subarray(0, 40))
  await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2027-01-16' }).then(
    () => assert.unreachable('a truncated raw file fails the build'),
    (error) => assert.match(String(error), /follow_scans\.parquet/),
  )
  assert.equal(await stateRows(), before)
  fs.writeFileSync(scans, good)

  // the next night: 12-17 leaves the window, its scores stay; the ranks of every date still in the window stay
  const next = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2027-01-16' })
  for (const date of ['2026-11-15', '2026-12-16', '2026-12-17']) {
    assert.equal(await served(next.dir, date), unranked(await served(first.dir, date)), date)
  }
  for (const date of ['2026-12-18', '2027-01-01', '2027-01-15']) assert.equal(await served(next.dir, date), await served(first.dir, date), date)
  // the state holds no rank before its last 60 days and no row that repeats the score of the row before it there
  const [{ ranked, repeated }] = await queryState(snapshots, `
    with h as (select *, lag(platform_score) over (partition by platform_id order by score_date) as before from st.score_history)
    select (select count(*) from st.score_ranks where score_date < DATE '2026-11-18') as ranked,
      count(*) filter (where before = platform_score) as repeated from h`)
  assert.equal([ranked, repeated], ['0', '0'])
  // a rerun of the night, and of the night before, give the same rows
  const history = (dir: string) => marts(dir, ['score_history', 'score_ranks'])
  const again = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2027-01-16' })
  assert.equal(await history(again.dir), await history(next.dir))
  const earlier = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2027-01-15' })
  assert.equal(await history(earlier.dir), await history(first.dir))
})

History('history :: a build killed after its commit keeps the ranks of the window current serves: a rerun gives its rows again', async () => {
  const raw = await writeDailyRaw(tempDir('history-kill-raw'), baseRaw(), [...daysBetween('2026-11-01', BUILD_DATE), '2026-12-20', '2026-12-21'])
  const snapshots = tempDir('history-kill')
  // scored from 11-20: the day before the window of 12-20 (11-21 on), then every day of it
  const served = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-12-20', backfillDays: 30 })
  // the build of 12-21 is killed the moment its day is committed to the state, before it publishes
  const child = buildKilledAt({ rawDir: raw, snapshotsDir: snapshots, date: '2026-12-21' }, '"step":"commit_state"')
  assert.is(child.signal, 'SIGKILL', child.stderr)
  assert.is(fs.readlinkSync(path.join(snapshots, 'current')), served.snapshotId)
  // 11-21 opens the window of the 12-20 snapshot that current serves
  const [{ ranked }] = await queryState(snapshots, `select count(*) as ranked from st.score_ranks where score_date = DATE '2026-11-21'`)
  assert.ok(Number(ranked) > 0, 'the ranks of 11-21 are still in the state')
  const again = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-12-20' })
  const rows = (dir: string) => marts(dir, ['score_history', 'score_ranks'])
  assert.equal(await rows(again.dir), await rows(served.dir))
})

Publish.run()
History.run()
