/**
 * Raw ingest check of one raw folder (a day folder, or the single-folder layout): every file of the raw contract
 * exists, is readable Parquet, has the contract's column types, has no null or duplicated key, and obeys the
 * contract's row rules (no NULL in a required column or list, parsable text, values in range, nothing dated after
 * the folder's day, every scanned account and followed id known). A
 * failure names the file, the row where known (1-based file row) and the reason. The files are checked in parallel
 * (fan-out.ts).
 */
import fs from 'node:fs'
import path from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { queryRows, sqlString } from './duckdb.ts'
import { fanOut } from './fan-out.ts'
import { sha256File } from './file-hash.ts'
import { RAW_FILES, type RawFile } from './raw-contract.ts'

export class RawInputError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
    readonly row?: number,
  ) {
    super(`raw input rejected: ${file}${row === undefined ? '' : ` row ${row}`}: ${reason}`)
    this.name = 'RawInputError'
  }
}

export interface RawFileInfo {
  file: string
  rows: number
  sha256: string
  /** inode, size and mtime when validated (see assertRawUnchanged) */
  identity: string
}

/** Identity of a raw file on disk, to detect a raw folder replaced or rewritten while the build reads it. */
function fileIdentity(file: string): string {
  const stat = fs.statSync(file)
  return `${stat.ino}:${stat.size}:${stat.mtimeMs}`
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] : String(error)
}

async function checkColumns(conn: DuckDBConnection, spec: RawFile, source: string): Promise<void> {
  let described: Record<string, unknown>[]
  try {
    described = await queryRows(conn, `describe select * from ${source}`)
  } catch (error) {
    throw new RawInputError(spec.file, `unreadable or truncated Parquet: ${errorMessage(error)}`)
  }
  const actual = new Map(described.map((c) => [String(c.column_name), String(c.column_type)]))
  for (const [column, expected] of Object.entries(spec.columns)) {
    const type = actual.get(column)
    if (type === undefined) throw new RawInputError(spec.file, `missing column ${column} (expected ${expected})`)
    if (type !== expected) throw new RawInputError(spec.file, `column ${column} has type ${type}, expected ${expected}`)
  }
}

/** The file's row count, after checking its key in the same scan: no null key, no key twice (else the row). */
async function countCheckingKey(conn: DuckDBConnection, spec: RawFile, file: string): Promise<number> {
  const key = spec.key.join(', ')
  const numbered = `read_parquet(${sqlString(file)}, file_row_number = true)`
  const [scan] = await queryRows(
    conn,
    `select count(*) as rows,
       min(file_row_number) filter (where ${spec.key.map((k) => `${k} is null`).join(' or ')}) as null_row,
       count(distinct {${spec.key.map((k) => `${k}: ${k}`).join(', ')}}) as keys
     from ${numbered}`,
  )
  if (scan.null_row !== null && scan.null_row !== undefined) {
    throw new RawInputError(spec.file, `null key (${key})`, Number(scan.null_row) + 1)
  }
  if (Number(scan.keys) === Number(scan.rows)) return Number(scan.rows)
  const [first] = await queryRows(
    conn,
    `select ${key}, file_row_number from (
       select ${key}, file_row_number, row_number() over (partition by ${key} order by file_row_number) as occurrence
       from ${numbered})
     where occurrence = 2 order by file_row_number limit 1`,
  )
  const value = spec.key.map((k) => `${k}=${first[k]}`).join(', ')
  throw new RawInputError(spec.file, `duplicated key (${value})`, Number(first.file_row_number) + 1)
}

export interface RawFolder {
  /** absolute folder path */
  dir: string
  /** how the files are named in errors and the manifest: `2026-11-22/tweets.parquet`, or the bare name */
  prefix: string
  /** a day folder's day: its dated rows must not be later (scans and counts are of that day) */
  day?: string
  /** rows dated after this day are not read (the single-folder layout's later days) */
  until: string
}

/** A row rule: `where` selects a bad row, `reason` is a SQL text expression saying why (it may show the value). */
interface RowRule {
  where: string
  reason: string
}

/** The column rules of the contract: required columns, list items, parsable text, value ranges, handles. */
function columnRules(spec: RawFile): RowRule[] {
  const rules: RowRule[] = []
  const required = Object.entries(spec.columns).filter(([c]) => !spec.key.includes(c) && !spec.nullable?.includes(c))
  for (const [column] of required) {
    rules.push({ where: `${column} is null`, reason: sqlString(`null ${column} (the column is required)`) })
  }
  for (const [column, type] of Object.entries(spec.columns)) {
    if (!type.endsWith('[]') || spec.nullable?.includes(column)) continue
    rules.push({ where: `list_count(${column}) <> len(${column})`, reason: sqlString(`null item in ${column}`) })
  }
  for (const [column, type] of Object.entries(spec.parses ?? {})) {
    rules.push({
      where: `${column} is not null and try_cast(${column} as ${type}) is null`,
      reason: `${sqlString(`${column} "`)} || ${column} || ${sqlString(`" is not a valid ${type}`)}`,
    })
  }
  for (const [column, range] of Object.entries(spec.ranges ?? {})) {
    const finite = spec.columns[column] === 'DOUBLE'
    const bounds = range.max === undefined ? `${column} < ${range.min}` : `${column} not between ${range.min} and ${range.max}`
    const where = finite ? `not isfinite(${column}) or ${bounds}` : bounds
    const expected = range.max === undefined ? `≥ ${range.min}` : `in ${range.min}..${range.max}`
    const reason = range.min === 0 && range.max === undefined && !finite
      ? `${sqlString(`negative ${column} (got `)} || ${column} || ')'`
      : `${sqlString(`${column} `)} || ${column} || ${sqlString(` is not ${finite ? 'a finite number ' : ''}${expected}`)}`
    rules.push({ where, reason })
  }
  for (const column of spec.handles ?? []) {
    // blank: nothing but white space, separators and invisible format characters (a zero-width space)
    rules.push({ where: `regexp_full_match(${column}, '[\\s\\p{Z}\\p{Cf}]*')`, reason: `${sqlString(`empty ${column} "`)} || ${column} || '"'` })
  }
  return rules
}

/** The rules of a folder's dated rows: nothing dated after its day, and scans taken on their scan_date. */
function folderRules(spec: RawFile, folder: RawFolder): RowRule[] {
  const until = `DATE '${folder.until}'`
  const day = folder.day ? `DATE '${folder.day}'` : null
  const onDay = day
    ? [{ where: `scan_date <> ${day}`, reason: `'scan_date ' || scan_date || ${sqlString(` in the folder of ${folder.day}`)}` }]
    : []
  switch (spec.file) {
    case 'follower_counts.parquet':
      return onDay
    case 'tweets.parquet':
      return day
        ? [{ where: `try_cast(created_at as timestamptz) >= cast(${day} + 1 as timestamptz)`,
             reason: `'created_at ' || created_at || ${sqlString(` is after the day of its folder (${folder.day})`)}` }]
        : []
    case 'follow_scans.parquet':
      return [
        ...onDay,
        { where: `scan_date <= ${until} and cast(scanned_at as date) <> scan_date`,
          reason: `'scanned_at ' || scanned_at || ' is not on scan_date ' || scan_date` },
      ]
    default:
      return []
  }
}

/** Every row rule of a file in one scan: the first bad row in file order, with the first rule it breaks. */
async function checkRows(conn: DuckDBConnection, spec: RawFile, file: string, name: string, folder: RawFolder): Promise<void> {
  const rules = [...columnRules(spec), ...folderRules(spec, folder)]
  if (!rules.length) return
  const [bad] = await queryRows(
    conn,
    `select file_row_number, case ${rules.map((r) => `when ${r.where} then ${r.reason}`).join(' ')} end as reason
     from read_parquet(${sqlString(file)}, file_row_number = true)
     where ${rules.map((r) => `(${r.where})`).join(' or ')}
     order by file_row_number limit 1`,
  )
  if (bad) throw new RawInputError(name, String(bad.reason), Number(bad.file_row_number) + 1)
}

/** Every label id of the folder's label files is defined by its reference table (RawFile.references): else file, row and id. */
async function checkReferences(conn: DuckDBConnection, folder: RawFolder): Promise<void> {
  const file = (name: string) => sqlString(path.join(folder.dir, name))
  for (const spec of RAW_FILES) {
    for (const [column, [target, key]] of Object.entries(spec.references ?? {})) {
      const [bad] = await queryRows(
        conn,
        `select r.file_row_number, r.${column}::varchar as id
         from read_parquet(${file(spec.file)}, file_row_number = true) r
         anti join read_parquet(${file(target)}) t on t.${key} = r.${column}
         order by r.file_row_number limit 1`,
      )
      if (bad) {
        throw new RawInputError(`${folder.prefix}${spec.file}`, `unknown ${column} ${bad.id} (not in ${target})`, Number(bad.file_row_number) + 1)
      }
    }
  }
}

/**
 * Every follow scan and follower count (up to `until`) is of an account of the folder's accounts: else file, row and
 * account_id.
 */
async function checkScannedAccounts(conn: DuckDBConnection, folder: RawFolder): Promise<void> {
  const file = (name: string) => sqlString(path.join(folder.dir, name))
  for (const scans of ['follow_scans.parquet', 'follower_counts.parquet']) {
    const [bad] = await queryRows(
      conn,
      `select s.file_row_number, s.account_id::varchar as id
       from read_parquet(${file(scans)}, file_row_number = true) s
       anti join read_parquet(${file('accounts.parquet')}) a on a.account_id = s.account_id
       where s.scan_date <= DATE '${folder.until}'
       order by s.file_row_number limit 1`,
    )
    if (bad) {
      throw new RawInputError(`${folder.prefix}${scans}`, `unknown scanned account_id ${bad.id} (not in accounts.parquet)`, Number(bad.file_row_number) + 1)
    }
  }
}

/** Every followed id of the folder's scans (up to `until`) is in its accounts or friends: else file, row and id. */
async function checkFollowedIds(conn: DuckDBConnection, folder: RawFolder): Promise<void> {
  const file = (name: string) => sqlString(path.join(folder.dir, name))
  const [bad] = await queryRows(
    conn,
    `with followed as (
       select file_row_number, unnest(following_ids) as id
       from read_parquet(${file('follow_scans.parquet')}, file_row_number = true)
       where scan_date <= DATE '${folder.until}')
     select file_row_number, id::varchar as id from followed
     anti join read_parquet(${file('accounts.parquet')}) a on a.account_id = followed.id
     anti join read_parquet(${file('friends.parquet')}) f on f.account_id = followed.id
     order by file_row_number limit 1`,
  )
  if (bad) {
    throw new RawInputError(
      `${folder.prefix}follow_scans.parquet`,
      `unknown followed id ${bad.id} (in neither accounts.parquet nor friends.parquet)`,
      Number(bad.file_row_number) + 1,
    )
  }
}

/**
 * Check every raw file of a folder against the contract; returns row counts and checksums for the manifest.
 * @example const files = await validateRaw(connect, { dir: 'raw/2026-11-22', prefix: '2026-11-22/', day: '2026-11-22', until: '2026-11-22' })
 */
export async function validateRaw(connect: () => Promise<DuckDBConnection>, folder: RawFolder, parallel = 2): Promise<RawFileInfo[]> {
  const infos = await fanOut(RAW_FILES, parallel, connect, (conn, spec) => validateFile(conn, spec, folder))
  const conn = await connect()
  try {
    await checkReferences(conn, folder)
    await checkScannedAccounts(conn, folder)
    await checkFollowedIds(conn, folder)
  } finally {
    conn.closeSync()
  }
  return infos
}

async function validateFile(conn: DuckDBConnection, spec: RawFile, folder: RawFolder): Promise<RawFileInfo> {
  const file = path.join(folder.dir, spec.file)
  const name = `${folder.prefix}${spec.file}`
  if (!fs.existsSync(file)) throw new RawInputError(name, `missing file (expected ${file})`)
  const source = `read_parquet(${sqlString(file)})`
  await checkColumns(conn, { ...spec, file: name }, source)
  let rows: number
  try {
    rows = await countCheckingKey(conn, { ...spec, file: name }, file)
    await checkRows(conn, spec, file, name, folder)
  } catch (error) {
    if (error instanceof RawInputError) throw error
    throw new RawInputError(name, `unreadable Parquet: ${errorMessage(error)}`)
  }
  return { file: name, rows, sha256: await sha256File(file), identity: fileIdentity(file) }
}

/**
 * Fail when a raw file changed on disk since validateRaw read it (the models read the raw files more than once, so
 * a raw folder replaced mid-build would mix two versions).
 */
export function assertRawUnchanged(rawDir: string, validated: RawFileInfo[]): void {
  for (const info of validated) {
    const file = path.join(rawDir, info.file)
    if (!fs.existsSync(file) || fileIdentity(file) !== info.identity) {
      throw new RawInputError(info.file, 'changed on disk during the build; rebuild once the raw folder is complete')
    }
  }
}
