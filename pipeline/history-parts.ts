/**
 * History tables, each closed month written once (docs/snapshot.md, "History parts"): a table that grows every day is
 * split into parts by the UTC day of its rows: one part per calendar month before the build date's month, and one
 * per week of the build date's month (the open month: days 1–7, 8–14, 15–21, 22–28 and 29 to its end), named by
 * their first day: `<table>/period=YYYY-MM/data.parquet` or `period=YYYY-MM-DD/` (Hive-partitioned, for analysts) and
 * `serving/<table>/period=.../` (for the server). The first night of a month writes the month that closed as one part,
 * in place of its weeks. A part whose rows are the same as in the snapshot `current` points to (same fingerprint: the
 * table's definition, the period, its row count and the sum of its rows' hashes) is hard-linked from it instead of
 * written again, so a night writes the parts that changed (usually the build date's week), not the whole history, nor
 * a month that grows all month long. A table of one list per day (`parts: 'day'`, the ranks of each scored date) has
 * a part per day, `period=YYYY-MM-DD`: a night writes the dates it scored. A table whose recent days change after
 * they are folded (`parts: 'week'`, the tweets delivered again) keeps a part per week in every month: the first
 * nights of a month write the last week of the month before, not the whole month. Snapshots stay self-contained and
 * immutable: a link is a second name of the same file, and pruning a snapshot only removes its names.
 *
 * Rows of a part are sorted by their key (`platform_id`) when the table has one, then as `order` says; its serving
 * folder holds the sorted distinct keys (`platform_id`, u64) and `offsets` (i32, keys + 1: the rows of key k are
 * offsets[k] .. offsets[k+1]-1) of a keyed table, and one column per `serving`, `texts` and `marks` entry (a table
 * with none of these, which the server does not read, has no serving folder).
 *
 * @example const basis = historyBasis('/snapshots/2026-11-21_...', '2026-11-22', '2026-11-22')
 *          await runHistoryModels(conn, basis)
 *          const { files, parts } = await writeHistoryParts(conn, '/snapshots/.tmp-x', '2026-11-22', basis)
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { log } from '../log/logger.ts'
import { writeAccountsOfParts, writePartRefs } from './account-refs.ts'
import { AuditError } from './audit-error.ts'
import { queryRows, queryValue, sqlString, stepRunner } from './duckdb.ts'
import { sha256File } from './file-hash.ts'
import { HISTORY_TABLES, PART_FILE, type HistoryTable } from './history-tables.ts'
import { addDays } from './plan.ts'
import type { Manifest, ManifestFile, PartEntry } from './publish.ts'
import { chunks, items, SERVING_FORMAT, ServingWriter, writeColumns, writeText } from './serving-writer.ts'

/**
 * The version of how a part is written (raise it when writePeriod, or the writers it calls, change what they write:
 * every part is written again).
 */
const PARTS_VERSION = 1
const PARQUET_OPTIONS = 'FORMAT parquet, COMPRESSION zstd'

const partPath = (table: string, period: string) => path.join(table, `period=${period}`)

/** Days per part in the build date's month: a night rewrites at most a week of rows, a request reads at most 5 parts of it. */
const OPEN_PART_DAYS = 7

/**
 * The parts of a table in the snapshot of `buildDate` (SQL over its `day` column, DATE): a row's part starts on a
 * month's first day, or on the 1st, 8th, 15th, 22nd or 29th in the build date's month and in every month of a table
 * parted by week (`start`); from a part's start, the day after its last (`end`: a week ends by its month's end) and
 * its name, YYYY-MM for a month and YYYY-MM-DD for a week (`name`).
 */
function periodsOf(buildDate: string, table: HistoryTable) {
  if (table.parts === 'day') {
    return { start: 'day', end: (start: string) => `(${start} + 1)`, name: (start: string) => `strftime(${start}, '%Y-%m-%d')` }
  }
  const month = `date_trunc('month', day)::DATE`
  const weekStart = `(${month} + ${OPEN_PART_DAYS} * ((day(day) - 1) // ${OPEN_PART_DAYS})::INTEGER)`
  const weekEnd = (start: string) => `least(${start} + ${OPEN_PART_DAYS}, (date_trunc('month', ${start}) + INTERVAL 1 MONTH)::DATE)`
  const weekName = (start: string) => `strftime(${start}, '%Y-%m-%d')`
  if (table.parts === 'week') return { start: weekStart, end: weekEnd, name: weekName }
  const open = `DATE '${buildDate.slice(0, 7)}-01'`
  return {
    start: `if(day >= ${open}, ${weekStart}, ${month})`,
    end: (start: string) => `if(${start} >= ${open}, ${weekEnd(start)}, (${start} + INTERVAL 1 MONTH)::DATE)`,
    name: (start: string) => `if(${start} >= ${open}, ${weekName(start)}, strftime(${start}, '%Y-%m'))`,
  }
}

/**
 * What a build's history parts start from: the manifest of the snapshot `current` points to (`previousDir`), the day
 * before which the settled tables' rows are carried from it (`settled`, null: none; `settledWeeks` for the tables
 * parted by week or day) and the first day of the first part the build may have to write (`since`, null: every
 * part): the part holding `settled`, or an earlier one that cannot be linked from `current` (another layout, a file
 * missing). The score history's model leaves out the rows of the parts before `since` but its first row's, so a night
 * reads a year of changes of score without copying them.
 */
export interface HistoryBasis {
  previousDir: string | null
  previous: Manifest | null
  settled: string | null
  settledWeeks: string | null
  since: string | null
}

export function historyBasis(previousDir: string | null, buildDate: string, changedFrom: string | null): HistoryBasis {
  const previous = readManifest(previousDir)
  const settled = settledBefore(previous, buildDate, changedFrom, 'months')
  const settledWeeks = settledBefore(previous, buildDate, changedFrom, 'weeks')
  if (!previous || settled === null) return { previousDir, previous, settled, settledWeeks, since: null }
  let since = partStart(buildDate, settled)
  for (const table of HISTORY_TABLES.filter((t) => t.settled)) {
    for (const { period, rows, hashes } of previous.parts?.[table.name] ?? []) {
      const { start } = periodRange(table, period)
      if (start >= since) continue
      const linkable = hashes !== undefined && previousEntry(previous, table, period, fingerprintOf(table, period, rows, hashes)) !== undefined &&
        partFiles(previousDir!, table, period) !== null
      if (!linkable) since = start
    }
  }
  return { previousDir, previous, settled, settledWeeks, since }
}

/** The first day of the month or week part (periodsOf) that holds `day` in the snapshot of `buildDate`. */
function partStart(buildDate: string, day: string): string {
  if (day.slice(0, 7) !== buildDate.slice(0, 7)) return `${day.slice(0, 7)}-01`
  const dayOfMonth = Number(day.slice(8, 10))
  return `${day.slice(0, 8)}${String(dayOfMonth - ((dayOfMonth - 1) % OPEN_PART_DAYS)).padStart(2, '0')}`
}

/**
 * The history tables' models and the intermediate models they alone read, on `conn` (after the marts; a connection
 * with the models' variables), from `basis`.
 */
export async function runHistoryModels(conn: DuckDBConnection, basis: HistoryBasis): Promise<void> {
  await conn.run(`SET VARIABLE history_since = ${basis.since ? `DATE '${basis.since}'` : 'NULL::DATE'}`)
  const runStep = stepRunner(conn)
  for (const table of HISTORY_TABLES) {
    for (const model of table.models) await runStep('intermediate', model)
    await runStep('history', table.name)
  }
}

/**
 * Write (or link from the snapshot before, `basis`) every part of every history table into `dir`, the snapshot of
 * `buildDate`; the manifest's entries for them.
 */
export async function writeHistoryParts(conn: DuckDBConnection, dir: string, buildDate: string, basis: HistoryBasis) {
  const started = Date.now()
  const { previous, previousDir } = basis
  const files: ManifestFile[] = []
  const parts: Record<string, PartEntry[]> = {}
  const count = { rows: 0, written: 0, linked: 0, carried: 0 }
  const tableMs: Record<string, number> = {}
  for (const table of HISTORY_TABLES) {
    const tableStarted = Date.now()
    const columns = Object.entries(table.columns).map(([name, type]) => `${name}::${type} AS ${name}`).join(', ')
    const parting = periodsOf(buildDate, table)
    const hash = table.rowHash ?? `hash(${Object.keys(table.columns).join(', ')})`
    const carried = await carriedParts(conn, table, previous, table.parts ? basis.settledWeeks : basis.settled)
    const computed = (await queryRows(
      conn,
      `SELECT ${parting.name('start')} AS period, start::VARCHAR AS start, ${parting.end('start')}::VARCHAR AS end, rows, hashes FROM (
         SELECT ${parting.start} AS start, count(*)::INTEGER AS rows, sum(${hash})::VARCHAR AS hashes
         FROM ${rowsOutside(table, carried)} GROUP BY start
       )`,
    )) as unknown as Period[]
    const periods = [...carried, ...computed].sort((a, b) => (a.start < b.start ? -1 : 1))
    count.carried += carried.length
    parts[table.name] = []
    for (const { period, start, end, rows, hashes } of periods) {
      const fingerprint = fingerprintOf(table, period, rows, hashes)
      parts[table.name].push({ period, rows, hashes, fingerprint })
      const entry = previousEntry(previous, table, period, fingerprint)
      if (entry && linkPart(previousDir!, dir, table, period)) {
        files.push(entry)
        count.linked++
      } else {
        // the part's rows by a range of days (read faster than by recomputing each row's start)
        files.push(await writePart(conn, dir, table, { period, rows }, columns, daysOf(table, start, end)))
        count.written++
        count.rows += rows
      }
    }
    if (table.refs) {
      const folders = parts[table.name].map(({ period }) => path.join(dir, 'serving', partPath(table.name, period)))
      await writeAccountsOfParts(conn, dir, table.name, folders.reverse())
    }
    tableMs[table.name] = Date.now() - tableStarted
  }
  log.info('build.step', {
    step: 'history_parts', layer: 'publish', rows: count.rows, parts_written: count.written, parts_linked: count.linked,
    parts_carried: count.carried, ms_by_table: tableMs, ms: Date.now() - started,
  })
  return { files, parts }
}

/** A part's period, its first day and the day after its last, its row count and the sum of its rows' hashes. */
interface Period {
  period: string
  start: string
  end: string
  rows: number
  hashes: string
}

/**
 * The day before which this build's rows of the settled tables are those of the snapshot before (`previous`), or null
 * (none: an import, or no snapshot before): the first day it folded, replayed, rewound or scored (`changedFrom`), no
 * later than the day after the snapshot before's date; for the tables parted by month (`months`), before that
 * snapshot's month when it was built in another month (its weeks are one part now).
 */
function settledBefore(previous: Manifest | null, buildDate: string, changedFrom: string | null, parted: 'months' | 'weeks'): string | null {
  if (!previous || changedFrom === null) return null
  const bounds = [changedFrom, addDays(previous.build_date, 1)]
  if (parted === 'months' && previous.build_date.slice(0, 7) !== buildDate.slice(0, 7)) bounds.push(`${previous.build_date.slice(0, 7)}-01`)
  return bounds.sort()[0]
}

/**
 * The parts of a settled table carried from the snapshot before without reading their rows: those ending by
 * `settled`, with their hash sums in its manifest, holding none of the days the build changed otherwise (the tweets
 * delivered again), and starting after the table's first day (the part that holds it may gain or lose what came
 * before: the score history's first date moves once a month, old ranks are dropped; not in a table that keeps every
 * row).
 */
async function carriedParts(conn: DuckDBConnection, table: HistoryTable, previous: Manifest | null, settled: string | null): Promise<Period[]> {
  if (!table.settled || !previous || settled === null) return []
  const { settled: rule } = table
  const keepsRows = rule !== true
  const changed = keepsRows ? (await queryRows(conn, rule.changedDays(settled))).map((r) => String(r.day)) : []
  const first = keepsRows ? null : await queryValue(conn, `SELECT min(day)::VARCHAR FROM ${table.name}`)
  if (!keepsRows && first === null) return []
  return (previous.parts?.[table.name] ?? []).flatMap(({ period, rows, hashes }) => {
    const { start, end } = periodRange(table, period)
    const afterFirst = keepsRows || start > String(first)
    const untouched = afterFirst && end <= settled && !changed.some((day) => start <= day && day < end)
    return hashes !== undefined && untouched ? [{ period, start, end, rows, hashes }] : []
  })
}

/** The first day of the part named `period` and the day after its last (in SQL: periodsOf's `start` and `end`). */
function periodRange(table: HistoryTable, period: string): { start: string; end: string } {
  if (table.parts === 'day') return { start: period, end: addDays(period, 1) }
  const monthEnd = nextMonth(period.slice(0, 7))
  if (period.length > 7) return { start: period, end: [addDays(period, OPEN_PART_DAYS), monthEnd].sort()[0] }
  return { start: `${period}-01`, end: monthEnd }
}

/** The first day of the month after `month` (YYYY-MM). */
function nextMonth(month: string): string {
  const next = new Date(`${month}-01T00:00:00Z`)
  next.setUTCMonth(next.getUTCMonth() + 1)
  return next.toISOString().slice(0, 10)
}

/** SQL selecting `table`'s rows of the days `start` ≤ day < `end` (a bound left out when null). */
function daysOf(table: HistoryTable, start: string | null, end: string | null): string {
  const bound = table.dayBound ?? ((op, day) => `day ${op} DATE '${day}'`)
  return [start && bound('>=', start), end && bound('<', end)].filter(Boolean).join(' AND ') || 'true'
}

/**
 * SQL of `table`'s rows outside the days of `periods` (the parts carried): one branch per range of days between them,
 * before the first and after the last, so that DuckDB reads each range's row groups only (a night reads the days it
 * changed, not the whole history; a condition of several ranges, or NOT of them, reads every row group).
 */
function rowsOutside(table: HistoryTable, periods: Period[]): string {
  const gaps: { start: string | null; end: string | null }[] = []
  let from: string | null = null
  for (const { start, end } of [...periods].sort((a, b) => (a.start < b.start ? -1 : 1))) {
    if (from === null || from < start) gaps.push({ start: from, end: start })
    if (from === null || end > from) from = end
  }
  gaps.push({ start: from, end: null })
  return `(${gaps.map(({ start, end }) => `SELECT * FROM ${table.name} WHERE ${daysOf(table, start, end)}`).join(' UNION ALL ')})`
}

function readManifest(dir: string | null): Manifest | null {
  if (!dir) return null
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest
  } catch (error) {
    log.warn('build.history_parts_unlinked', { current: dir, error: (error as Error).message, meaning: 'every part written' })
    return null
  }
}

/**
 * A part's fingerprint: its table's definition (a part is linked only when written by the same one: a changed layout
 * writes every part again), its period, row count and the sum of its rows' hashes.
 */
function fingerprintOf(table: HistoryTable, period: string, rows: number, hashes: string): string {
  const definition = JSON.stringify([PARTS_VERSION, SERVING_FORMAT, PARQUET_OPTIONS, table.columns, table.key, table.order, table.serving, table.texts, table.marks, table.refs])
  return crypto.createHash('sha256').update(`${definition}\n${period}\n${rows}\n${hashes}`).digest('hex').slice(0, 32)
}

/** The manifest entry of `table`'s part `period` in the snapshot before, when it was written with `fingerprint`. */
function previousEntry(previous: Manifest | null, table: HistoryTable, period: string, fingerprint: string): ManifestFile | undefined {
  if (!previous?.parts?.[table.name]?.some((p) => p.period === period && p.fingerprint === fingerprint)) return undefined
  const file = path.join(partPath(table.name, period), PART_FILE)
  return previous.files.find((f) => f.file === file)
}

/** A part's files in the snapshot `dir`, relative to it: its Parquet file and the serving files its columns.json
 * lists; null when one is missing. */
function partFiles(dir: string, table: HistoryTable, period: string): string[] | null {
  const part = partPath(table.name, period)
  const names = [path.join(part, PART_FILE)]
  try {
    if (isServed(table)) {
      const serving = path.join('serving', part)
      const { columns } = JSON.parse(fs.readFileSync(path.join(dir, serving, 'columns.json'), 'utf8')) as { columns: Record<string, unknown> }
      names.push(...['columns.json', ...Object.keys(columns).map((c) => `${c}.bin`)].map((f) => path.join(serving, f)))
    }
  } catch {
    return null
  }
  return names.every((name) => fs.existsSync(path.join(dir, name))) ? names : null
}

/** Hard-link a part's files (partFiles) from `from` into `to`; false (nothing linked) when one is missing. */
function linkPart(from: string, to: string, table: HistoryTable, period: string): boolean {
  const part = partPath(table.name, period)
  const folders = isServed(table) ? [part, path.join('serving', part)] : [part]
  try {
    const names = partFiles(from, table, period)
    if (!names) throw new Error('a file of the part is missing')
    for (const folder of folders) fs.mkdirSync(path.join(to, folder), { recursive: true })
    for (const name of names) fs.linkSync(path.join(from, name), path.join(to, name))
    return true
  } catch (error) {
    log.warn('build.history_part_relinked', { part, error: (error as Error).message, meaning: 'written again' })
    for (const folder of folders) fs.rmSync(path.join(to, folder), { recursive: true, force: true })
    return false
  }
}

/** Write one part of `table`: its Parquet file and its serving folder, after auditing its keys. */
async function writePart(conn: DuckDBConnection, dir: string, table: HistoryTable, part: { period: string; rows: number }, columns: string, where: string): Promise<ManifestFile> {
  // the part's rows read once from the whole history, then by every step from this connection's temporary table
  const source = 'history_part'
  await conn.run(`CREATE OR REPLACE TEMP TABLE ${source} AS SELECT * FROM ${table.name} WHERE ${where}`)
  try {
    // a part carried from `current` that could not be linked after all has no rows in a model that left them out
    const found = Number(await queryValue(conn, `SELECT count(*) FROM ${source}`))
    if (found !== part.rows) throw new Error(`history part ${table.name}/${part.period}: ${found} rows to write, ${part.rows} expected`)
    return await writePeriod(conn, dir, table, part, columns, source)
  } finally {
    await conn.run(`DROP TABLE IF EXISTS ${source}`)
  }
}

async function writePeriod(conn: DuckDBConnection, dir: string, table: HistoryTable, { period, rows }: { period: string; rows: number }, columns: string, source: string) {
  const duplicates = await queryRows(conn, `SELECT ${table.unique.join(', ')}, count(*) AS rows FROM ${source} GROUP BY ALL HAVING count(*) > 1 LIMIT 5`)
  if (duplicates.length > 0) throw new AuditError('history_unique_keys', duplicates.map((row) => ({ table: table.name, period, ...row })))
  const order = `ORDER BY ${table.key ? `${table.key}, ` : ''}${table.order}`
  const file = path.join(partPath(table.name, period), PART_FILE)
  fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true })
  await conn.run(`COPY (SELECT ${columns} FROM ${source} ${order}) TO ${sqlString(path.join(dir, file))} (${PARQUET_OPTIONS})`)

  if (isServed(table)) await writeServing(conn, dir, table, period, source, order)
  const schema = Object.entries(table.columns).map(([name, type]) => ({ name, type }))
  return { file, rows, sha256: await sha256File(path.join(dir, file)), schema }
}

/** Whether the server reads `table`'s parts: they have a serving folder. */
const isServed = (table: HistoryTable) =>
  table.key !== null || [table.serving, table.texts, table.marks ?? {}].some((columns) => Object.keys(columns).length > 0) ||
  table.refs !== undefined

/** A part's serving folder: its keys and offsets, serving, text and mark columns, account references. */
async function writeServing(conn: DuckDBConnection, dir: string, table: HistoryTable, period: string, source: string, order: string) {
  const out = new ServingWriter(path.join(dir, 'serving', partPath(table.name, period)))
  try {
    if (table.key) await writeKeys(conn, out, source)
    await writeColumns(conn, out, source, table.serving, order)
    await writeNumbered(conn, out, table, source, order)
  } finally {
    out.close()
  }
  out.finish()
}

/** A part's columns read by row number (texts, marks, account references), over its rows numbered once in `order`. */
async function writeNumbered(conn: DuckDBConnection, out: ServingWriter, table: HistoryTable, source: string, order: string) {
  const texts = Object.entries(table.texts)
  const marks = Object.entries(table.marks ?? {})
  if (texts.length === 0 && marks.length === 0 && !table.refs) return
  const numbered = `${source}_numbered`
  await conn.run(`CREATE OR REPLACE TEMP TABLE ${numbered} AS SELECT *, row_number() OVER (${order}) - 1 AS dense FROM ${source}`)
  try {
    for (const [name, sql] of texts) await writeText(conn, out, name, numbered, sql, 'dense', true)
    for (const [name, condition] of marks) {
      await writeColumns(conn, out, `${numbered} WHERE ${condition}`, { [name]: ['i32', 'dense::INTEGER'] }, 'ORDER BY dense')
    }
    if (table.refs) await writePartRefs(conn, out, table.refs, numbered)
  } finally {
    await conn.run(`DROP TABLE IF EXISTS ${numbered}`)
  }
}

/** A keyed part's sorted distinct keys (`platform_id`, u64) and their row `offsets` (i32, keys + 1). */
async function writeKeys(conn: DuckDBConnection, out: ServingWriter, source: string): Promise<void> {
  let total = 0
  out.appendBytes('offsets', 'i32', Int32Array.of(0))
  for await (const chunk of chunks(conn, `SELECT platform_id::UBIGINT, count(*)::INTEGER FROM ${source} GROUP BY 1 ORDER BY 1`)) {
    out.append('platform_id', 'u64', items(chunk.getColumnVector(0)).subarray(0, chunk.rowCount))
    const counts = items(chunk.getColumnVector(1)).subarray(0, chunk.rowCount) as Int32Array
    out.appendBytes('offsets', 'i32', counts.map((n) => (total += n)))
  }
}
