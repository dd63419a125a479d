/**
 * The pipeline state (docs/pipeline.md): one DuckDB database file, `<state>/state.duckdb`, attached to the build's
 * database as `st`. A build reads the state as of the day before its date (views in sql/state/state_views.sql) and
 * writes its day in one transaction (sql/state/apply_day.sql), which is all or nothing: a killed build leaves the
 * state of the day before. The day stays "unpublished" until `current` points to its snapshot; a build that finds an
 * unpublished day whose snapshot is not `current` (killed between the two) rewinds it, so state and snapshot move
 * together.
 *
 * @example await attachState(conn, 'snapshots/state'); const days = await stateDays(conn)
 */
import fs from 'node:fs'
import path from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { log } from '../log/logger.ts'
import { queryRows, queryValue, runSqlFile, setVariables, sqlString } from './duckdb.ts'
import { addDays, lateRawDays } from './plan.ts'
import { currentName, removeSnapshot } from './publish.ts'
import type { RawLayout } from './raw-days.ts'

const STATE_FILE = 'state.duckdb'

/** The state folder a build uses when none is given: `<snapshots>/state`, next to the snapshots it pairs with. */
export function defaultStateDir(snapshotsDir: string): string {
  return path.join(path.resolve(snapshotsDir), 'state')
}

/**
 * Attach (creating when absent) the state database as `st`; a state written by an earlier version is brought up to
 * date (a dense score history made sparse, ranks moved out of the score history, superseded tweet deliveries
 * marked, each tweet delivery's content hash kept, the scanned sources listed).
 */
export async function attachState(conn: DuckDBConnection, stateDir: string): Promise<void> {
  fs.mkdirSync(stateDir, { recursive: true })
  await conn.run(`attach ${sqlString(path.join(path.resolve(stateDir), STATE_FILE))} as st`)
  await runSqlFile(conn, 'state/schema.sql')
  // what an earlier version's state lacks or still has: one look at the state's columns
  const columns = new Set(
    (await queryRows(conn, `select table_name || '.' || column_name as c from duckdb_columns() where database_name = 'st'`)).map((r) => String(r.c)),
  )
  if (columns.has('scores.platform_score')) {
    await inTransaction(conn, () => runSqlFile(conn, 'state/migrate_dense_scores.sql'))
    log.info('state.migrated', { table: 'score_history', from: 'scores' })
  }
  if (columns.has('score_history.rank')) {
    await inTransaction(conn, () => runSqlFile(conn, 'state/migrate_score_ranks.sql'))
    log.info('state.migrated', { table: 'score_ranks', from: 'score_history.rank' })
  }
  if (!columns.has('tweets.superseded_on')) {
    await inTransaction(conn, () => runSqlFile(conn, 'state/migrate_tweet_deliveries.sql'))
    log.info('state.migrated', { table: 'tweets', column: 'superseded_on' })
  }
  if (await queryValue(conn, `select not exists (select 1 from st.follow_sources) and exists (select 1 from st.follow_scans)`)) {
    await inTransaction(conn, () => runSqlFile(conn, 'state/migrate_follow_sources.sql'))
    log.info('state.migrated', { table: 'follow_sources', from: 'follow_scans' })
  }
  if (!columns.has('tweets.row_hash')) {
    await inTransaction(conn, () => runSqlFile(conn, 'state/migrate_tweet_hashes.sql'))
    log.info('state.migrated', { table: 'tweets', column: 'row_hash' })
  }
}

export interface StateDay {
  day: string
  kind: 'night' | 'replay' | 'import'
  snapshot_id: string | null
  published: boolean
}

/** Days folded into the state, oldest first. */
export async function stateDays(conn: DuckDBConnection): Promise<StateDay[]> {
  const rows = await queryRows(conn, `select day::varchar as day, kind, snapshot_id, published from st.days order by day`)
  return rows as unknown as StateDay[]
}

/** Within the caller's transaction: remove every state row dated `date` or later. */
async function rewind(conn: DuckDBConnection, date: string): Promise<void> {
  await setVariables(conn, { rewind_date: { date } })
  await runSqlFile(conn, 'state/rewind.sql')
}

/** Days a snapshot shows ranks for, ending on its date (the score_ranks parts, one per scored date). */
export const RANK_HISTORY_DAYS = 30
/**
 * Days the state keeps ranks for, ending on its last day: a snapshot's window, and as many days again, so that a
 * rerun of any of the last RANK_HISTORY_DAYS days finds every rank its window shows.
 */
const RANK_KEPT_DAYS = 2 * RANK_HISTORY_DAYS

/** The first date of the rank window of a snapshot of `date`, set as `rank_cutoff` for the score_ranks table. */
export async function setRankCutoff(conn: DuckDBConnection, date: string): Promise<void> {
  await setVariables(conn, { rank_cutoff: { date: addDays(date, 1 - RANK_HISTORY_DAYS) } })
}

/** Within the commit of `date`: drop the state's ranks before its last RANK_KEPT_DAYS days (every score stays). */
async function retainRanks(conn: DuckDBConnection, date: string): Promise<void> {
  await conn.run(`delete from st.score_ranks where score_date < DATE '${addDays(date, 1 - RANK_KEPT_DAYS)}'`)
}

/** Run `work` in one transaction of the state: committed when it returns, rolled back when it throws. */
async function inTransaction(conn: DuckDBConnection, work: () => Promise<void>): Promise<void> {
  await conn.run('begin transaction')
  try {
    await work()
  } catch (error) {
    // what failed is the error to report, not a rollback that fails after it
    await conn.run('rollback').catch(() => undefined)
    throw error
  }
  await conn.run('commit')
}

export interface CommitDay {
  date: string
  kind: StateDay['kind']
  snapshotId: string | null
  raw: string
  /** a from-scratch fold: every raw-derived row is replaced */
  rebuild: boolean
  /** dates whose scores this build computed (int_score_rows): consecutive, ending on `date` */
  scoreDates: string[]
  /** complete lookup files (absolute paths) to fold into lookup_counts */
  foldLookups: string[]
  /** the raw day folders (YYYY-MM-DD) whose daily files this build folded */
  rawDays: string[]
}

/**
 * Write the day the models folded into the state, in one transaction: rewind to the day before (a rerun) or clear
 * (a fold from scratch), the day's runs, events, scans, counts and tweets, the scores, the folded lookups, the day row.
 */
export async function commitDay(conn: DuckDBConnection, c: CommitDay): Promise<void> {
  await inTransaction(conn, async () => {
    // a rerun of an earlier day takes back the days built after it: later builds replay them (gap days too), also
    // after a fold from scratch
    await conn.run(`insert into st.replay_days select day from st.days where day > DATE '${c.date}'`)
    if (c.rebuild) await runSqlFile(conn, 'state/clear_raw_derived.sql')
    await rewind(conn, c.date)
    await runSqlFile(conn, 'state/apply_day.sql')
    if (c.scoreDates.length > 0) {
      const dates = c.scoreDates.map((d) => `DATE '${d}'`).join(', ')
      // the scored dates are consecutive and end on c.date: their rows and any later ones are replaced
      for (const table of ['score_history', 'score_keyframes', 'score_ranks', 'score_dates']) {
        await conn.run(`delete from st.${table} where score_date >= least(${dates})`)
      }
      await runSqlFile(conn, 'state/apply_scores.sql')
      await conn.run(`insert into st.score_dates select unnest([${dates}])`)
      await retainRanks(conn, c.date)
    }
    if (c.foldLookups.length > 0) {
      const files = `[${c.foldLookups.map(sqlString).join(', ')}]`
      await conn.run(`insert into st.lookup_counts
        select cast("at" as date), platform_id, count(*) from ${lookupSource(files)} group by all`)
      await conn.run(`insert into st.lookup_files
        select parse_filename(filename, false, 'system'), count(*), now() from ${lookupSource(files, true)} group by all`)
    }
    await conn.run(`delete from st.replay_days where day = DATE '${c.date}'`)
    if (c.rawDays.length > 0) {
      await conn.run(`insert into st.raw_days select unnest([${c.rawDays.map((d) => `DATE '${d}'`).join(', ')}]), now()`)
    }
    // unpublished until `current` points to a snapshot built on it (a replay's: the snapshot of the build that replays
    // it, or of a later one if that build stops before publishing)
    await conn.run(
      `insert into st.days values (DATE '${c.date}', '${c.kind}', ${c.snapshotId ? sqlString(c.snapshotId) : 'null'},
        false, now(), ${sqlString(c.raw)})`,
    )
  })
}

/**
 * The lookups of the server's lookup lines (`{at, operation, platform_id}`) in `files` (a SQL list): `"at"`,
 * `platform_id` (UBIGINT; the lines hold it as a decimal string) and, when asked, `filename`. Unreadable lines are
 * skipped (a server stopped mid-write leaves a partial last line).
 */
export function lookupSource(files: string, withFilename = false): string {
  return `(select "at", try_cast(platform_id as ubigint) as platform_id${withFilename ? ', filename' : ''}
    from read_json(${files}, format = 'newline_delimited', ignore_errors = true${withFilename ? ', filename = true' : ''},
      columns = {'at': 'TIMESTAMPTZ', 'operation': 'VARCHAR', 'platform_id': 'VARCHAR'})
    where try_cast(platform_id as ubigint) is not null and "at" is not null)`
}

/** Lookup files already folded (names). */
export async function foldedLookupFiles(conn: DuckDBConnection): Promise<Set<string>> {
  return new Set((await queryRows(conn, 'select file from st.lookup_files')).map((r) => String(r.file)))
}

/** The raw day folders folded into the state (YYYY-MM-DD). */
export async function foldedRawDays(conn: DuckDBConnection): Promise<Set<string>> {
  return new Set((await queryRows(conn, 'select day::varchar as day from st.raw_days')).map((r) => String(r.day)))
}

/**
 * A state written before `raw_days` was kept has days but no folded folders: the days it holds scans or follower
 * counts of, and every day folder present up to its last day, are taken as folded (what the builds that wrote it
 * assumed), so that a folder pruned then still counts as folded and gone. Returns the number of days recorded.
 */
export async function seedRawDays(conn: DuckDBConnection, folders: string[]): Promise<number> {
  const known = Number(await queryValue(conn, 'select count(*) from st.raw_days'))
  const last = await queryValue(conn, 'select max(day)::varchar from st.days')
  if (known > 0 || last === null) return 0
  const present = folders.filter((d) => d <= String(last)).map((d) => `DATE '${d}'`)
  await conn.run(`insert into st.raw_days select day, now() from (
    select scan_date as day from st.follow_scans union select scan_date from st.follower_counts
    ${present.length ? `union select unnest([${present.join(', ')}])` : ''}) where day <= DATE '${last}'`)
  const seeded = Number(await queryValue(conn, 'select count(*) from st.raw_days'))
  log.info('state.migrated', { table: 'raw_days', days: seeded })
  return seeded
}

/** Open the state file alone (for the steps that run after the build's database is closed). */
async function withState<T>(stateDir: string, work: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  try {
    await attachState(conn, stateDir)
    return await work(conn)
  } finally {
    conn.closeSync()
    instance.closeSync()
  }
}

/**
 * Record that `current` now points to the snapshot `snapshotId`, and so to the replays committed before it (by its own
 * build, or by one that stopped before publishing).
 */
export async function markPublished(conn: DuckDBConnection, snapshotId: string): Promise<void> {
  await conn.run(`update st.days set published = true where snapshot_id = ${sqlString(snapshotId)} or (snapshot_id is null and not published)`)
}

/**
 * The first day replayed by a build that stopped before publishing (null: none): `current` was built before its
 * rows, so a build writes its history parts from that day, not links them from `current`.
 */
export async function unpublishedReplaysFrom(conn: DuckDBConnection): Promise<string | null> {
  const day = await queryValue(conn, `select min(day)::varchar from st.days where snapshot_id is null and not published`)
  return day === null ? null : String(day)
}

/**
 * Settle a day left unpublished by a build that was killed after committing it: published if `current` points to
 * its snapshot, else rewound (and its never-published folder removed). Returns what it did, if anything.
 */
export async function recoverUnpublished(conn: DuckDBConnection, snapshotsDir: string): Promise<string | null> {
  const pending = (await stateDays(conn)).filter((d) => d.snapshot_id && !d.published)
  const current = currentName(snapshotsDir)
  const [day] = pending
  if (!day) return null
  if (day.snapshot_id === current) {
    await markPublished(conn, day.snapshot_id!)
    log.info('state.recovered', { day: day.day, snapshot_id: day.snapshot_id, action: 'published' })
    return 'published'
  }
  await inTransaction(conn, async () => {
    await rewind(conn, day.day)
    // a day built is a day scored: the next builds replay it (a gap day as a gap) unless they build it again
    await conn.run(`insert into st.replay_days values (DATE '${day.day}')`)
  })
  removeSnapshot(snapshotsDir, day.snapshot_id!)
  log.warn('state.recovered', { day: day.day, snapshot_id: day.snapshot_id, action: 'rewound' })
  return 'rewound'
}

/**
 * Day folders delivered after their day was built without them. When the state can take them, their folders are
 * checked (`validate`), then the state is rewound to the oldest, and the night replays every day it had built from
 * there (`rebuilt`) plus the late folders. Otherwise they are kept, not folded, and named in an error line every
 * night until an operator acts (docs/pipeline.md).
 */
export async function settleLateRawDays(
  conn: DuckDBConnection,
  layout: RawLayout & { kind: 'daily' },
  date: string,
  validate: (days: string[]) => Promise<void>,
) {
  const days = await stateDays(conn)
  const { late, blocked } = lateRawDays(layout, days, await foldedRawDays(conn), date)
  if (late.length === 0) return { rewoundTo: null, unfolded: [] }
  if (blocked) {
    log.error('build.late_raw_days', { days: late, action: 'kept, not folded', reason: blocked, raw: layout.root })
    return { rewoundTo: null, unfolded: late }
  }
  // a malformed late folder fails the build before the state moves
  await validate(late)
  // the days taken back are replayed by this build, or by the next ones if it stops half-way
  const taken = days.map((d) => d.day).filter((d) => d >= late[0] && d < date)
  await inTransaction(conn, async () => {
    await rewind(conn, late[0])
    if (taken.length > 0) await conn.run(`insert into st.replay_days select unnest([${taken.map((d) => `DATE '${d}'`).join(', ')}])`)
  })
  log.warn('build.late_raw_days', { days: late, action: 'rewound', rewound_to: late[0], raw: layout.root })
  return { rewoundTo: late[0], unfolded: [] }
}

/** Days a rewind for a late folder took back and no build has committed again (replayed, gap days too). */
export async function pendingReplayDays(conn: DuckDBConnection): Promise<string[]> {
  return (await queryRows(conn, 'select distinct day::varchar as day from st.replay_days order by 1')).map((r) => String(r.day))
}

/**
 * A fold from scratch replaces the state with what the raw folder holds. Refused when that loses history: the
 * single-folder layout (the one-time import) over a state that folded day folders, and an empty state beside published
 * snapshots (a deleted state, or `STATE_DIR` pointing elsewhere), unless `rebuild` says so; `rebuild`, or a rerun of
 * an earlier day, over days whose folders are gone (retention) unless `discardMissing` says so.
 */
export async function guardFoldFromScratch(
  conn: DuckDBConnection,
  layout: RawLayout,
  opts: { snapshotsDir: string; stateDir: string; date: string; rebuild?: boolean; discardMissing?: boolean },
): Promise<void> {
  if (layout.kind === 'single') {
    // the day folders folded (a state from before raw_days was kept: its nights, which only day folders make)
    const nights = (await stateDays(conn)).filter((d) => d.kind !== 'import').map((d) => d.day)
    const folded = [...new Set([...(await foldedRawDays(conn)), ...nights])].sort()
    if (folded.length > 0 && !opts.rebuild) {
      throw new Error(
        `${layout.root} is in the single-folder layout (the one-time import of history), and the pipeline state already ` +
          `holds ${folded.length} day(s) folded from day folders (${folded[0]} … ${folded.at(-1)}): the import would ` +
          `replace them with the folder's rows. Point --raw at the day folders, or pass --rebuild to replace the state`,
      )
    }
    return
  }
  const days = await stateDays(conn)
  if (days.length === 0 && !opts.rebuild && hasCurrent(opts.snapshotsDir)) {
    throw new Error(
      `the pipeline state holds no day, but ${opts.snapshotsDir} has published snapshots: a fold from scratch would keep only ` +
        `the ${layout.days.length} raw day folders present. Restore the state (${opts.stateDir}, ` +
        `or point --state/STATE_DIR at it), or pass --rebuild to fold the folders present from scratch`,
    )
  }
  if (opts.discardMissing) return
  const folded = [...(await foldedRawDays(conn))].filter((day) => !layout.days.includes(day)).sort()
  if (opts.rebuild && folded.length > 0) {
    throw new Error(
      `--rebuild folds only the raw day folders present, and ${folded.length} day(s) the state folded have none ` +
        `(${folded[0]} … ${folded.at(-1)}): their follows, counts and tweets would be lost. Put the folders back, or add ` +
        `--discard-missing to rebuild without them`,
    )
  }
  // a rerun of an earlier day takes back the days from it on, which are then folded again from their folders
  const gone = folded.filter((day) => day >= opts.date)
  if (!opts.rebuild && gone.length > 0 && days.some((d) => d.day >= opts.date)) {
    throw new Error(
      `building ${opts.date} again takes back the days built from it on, and ${gone.length} of them have lost their raw ` +
        `folders (${gone[0]} … ${gone.at(-1)}): their follows, counts and tweets would be lost. Put the folders back, ` +
        `or add --discard-missing to go ahead without them`,
    )
  }
}

/** Whether `current` exists, as a link (even a broken one) or anything else. */
function hasCurrent(snapshotsDir: string): boolean {
  try {
    fs.lstatSync(path.join(snapshotsDir, 'current'))
    return true
  } catch {
    return false
  }
}

/** Rows of each state table, by name. */
export function stateRows(stateDir: string): Promise<Record<string, number>> {
  return withState(stateDir, async (conn) => {
    const tables = await queryRows(conn, `select table_name from duckdb_tables() where database_name = 'st' order by 1`)
    const rows: Record<string, number> = {}
    for (const { table_name } of tables) rows[String(table_name)] = Number(await queryValue(conn, `select count(*) from st.${table_name}`))
    return rows
  })
}

/** Size of the state on disk, in bytes (the database file and its write-ahead log). */
export function stateBytes(stateDir: string): number {
  let bytes = 0
  for (const name of [STATE_FILE, `${STATE_FILE}.wal`]) {
    const file = path.join(stateDir, name)
    if (fs.existsSync(file)) bytes += fs.statSync(file).size
  }
  return bytes
}
