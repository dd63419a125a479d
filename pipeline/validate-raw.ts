/**
 * Raw ingest check of raw folders (day folders, or the single-folder layout): every file of the raw contract exists,
 * is readable Parquet, has the contract's column types, has no null or duplicated key, and obeys the contract's row
 * rules (no NULL in a required column or list, parsable text, values in range, nothing dated after the folder's day,
 * every scanned account and followed id known by its own folder). A failure names the file, the row where known
 * (1-based file row) and the reason.
 *
 * The copies of a contract file in several folders (an import's days) are checked by the same queries at once, the
 * folders in batches of at most BATCH_BYTES of raw files; the contract files are checked in parallel (fan-out.ts).
 * When DuckDB cannot read a batch, its files are checked one by one to name the unreadable one.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { queryRows, sqlString } from './duckdb.ts'
import { fanOut } from './fan-out.ts'
import { sha256File } from './file-hash.ts'
import { RAW_FILES, type RawFile } from './raw-contract.ts'

/** Raw bytes of the folders checked by one set of queries: a year of demo days in a few batches, a large day alone. */
const BATCH_BYTES = 64 * 1024 ** 2

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

const CHANGED_DURING_BUILD = 'changed on disk during the build; rebuild once the raw folder is complete'

/** Identity of a raw file on disk, to detect a raw folder replaced or rewritten while the build reads it. */
function fileIdentity(file: string): string {
  const stat = fs.statSync(file)
  return `${stat.ino}:${stat.size}:${stat.mtimeMs}`
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] : String(error)
}

const filePath = (folder: RawFolder, file: string) => path.join(folder.dir, file)
const fileName = (folder: RawFolder, file: string) => `${folder.prefix}${file}`

/**
 * SQL of a contract file's rows in every folder of the batch: its columns with `file_row_number` (0-based), and
 * `ord` (the folder's place in `folders`), `folder_day` and `folder_until` of the folder it is in.
 */
function rowsOf(file: string, folders: RawFolder[]): string {
  const paths = folders.map((f) => sqlString(filePath(f, file)))
  const values = folders.map((f, i) => `(${paths[i]}, ${i}, ${f.day ? `DATE '${f.day}'` : 'NULL::DATE'}, DATE '${f.until}')`)
  return `(select f.ord, f.folder_day, f.folder_until, r.*
    from read_parquet([${paths.join(', ')}], filename = true, file_row_number = true, union_by_name = true) r
    join (values ${values.join(', ')}) f(filename, ord, folder_day, folder_until) using (filename))`
}

/** A file's columns against the contract: missing, or of another type. */
async function checkColumns(conn: DuckDBConnection, spec: RawFile, folder: RawFolder): Promise<void> {
  const name = fileName(folder, spec.file)
  let described: Record<string, unknown>[]
  try {
    described = await queryRows(conn, `describe select * from read_parquet(${sqlString(filePath(folder, spec.file))})`)
  } catch (error) {
    throw new RawInputError(name, `unreadable or truncated Parquet: ${errorMessage(error)}`)
  }
  const actual = new Map(described.map((c) => [String(c.column_name), String(c.column_type)]))
  for (const [column, expected] of Object.entries(spec.columns)) {
    const type = actual.get(column)
    if (type === undefined) throw new RawInputError(name, `missing column ${column} (expected ${expected})`)
    if (type !== expected) throw new RawInputError(name, `column ${column} has type ${type}, expected ${expected}`)
  }
}

/** The columns of the batch's copies of a file: one copy described per distinct Parquet schema. */
async function checkBatchColumns(conn: DuckDBConnection, spec: RawFile, folders: RawFolder[]): Promise<void> {
  if (folders.length === 1) return checkColumns(conn, spec, folders[0])
  const schemas = await queryRows(
    conn,
    `select file_name, md5(string_agg(concat_ws('|', column_id, name, type, repetition_type, num_children,
       converted_type, logical_type, duckdb_type), ';' order by column_id)) as schema
     from parquet_schema([${folders.map((f) => sqlString(filePath(f, spec.file))).join(', ')}]) group by file_name`,
  )
  const schemaOf = new Map(schemas.map((s) => [String(s.file_name), String(s.schema)]))
  const described = new Set<string>()
  for (const folder of folders) {
    const schema = schemaOf.get(filePath(folder, spec.file))
    if (schema !== undefined && described.has(schema)) continue
    await checkColumns(conn, spec, folder)
    if (schema !== undefined) described.add(schema)
  }
}

/** Each copy's row count, after checking its key in the same scan: no null key, no key twice (else the row). */
async function countCheckingKey(conn: DuckDBConnection, spec: RawFile, folders: RawFolder[]): Promise<number[]> {
  const key = spec.key.join(', ')
  const scans = await queryRows(
    conn,
    `select ord, count(*) as rows,
       min(file_row_number) filter (where ${spec.key.map((k) => `${k} is null`).join(' or ')}) as null_row,
       count(distinct {${spec.key.map((k) => `${k}: ${k}`).join(', ')}}) as keys
     from ${rowsOf(spec.file, folders)} group by ord`,
  )
  const scanOf = new Map(scans.map((s) => [Number(s.ord), s]))
  const rows: number[] = []
  for (const [ord, folder] of folders.entries()) {
    const scan = scanOf.get(ord)
    if (scan?.null_row !== null && scan?.null_row !== undefined) {
      throw new RawInputError(fileName(folder, spec.file), `null key (${key})`, Number(scan.null_row) + 1)
    }
    if (Number(scan?.keys ?? 0) !== Number(scan?.rows ?? 0)) {
      const [first] = await queryRows(
        conn,
        `select ${key}, file_row_number from (
           select ${key}, file_row_number, row_number() over (partition by ${key} order by file_row_number) as occurrence
           from ${rowsOf(spec.file, [folder])})
         where occurrence = 2 order by file_row_number limit 1`,
      )
      const value = spec.key.map((k) => `${k}=${first[k]}`).join(', ')
      throw new RawInputError(fileName(folder, spec.file), `duplicated key (${value})`, Number(first.file_row_number) + 1)
    }
    rows.push(Number(scan?.rows ?? 0))
  }
  return rows
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

/**
 * The rules of a folder's dated rows (`folder_day` and `folder_until` of rowsOf): nothing dated after its day, and
 * scans taken on their scan_date. The single-folder layout has no day (NULL: the day rules select nothing).
 */
function folderRules(spec: RawFile): RowRule[] {
  const onDay = { where: 'scan_date <> folder_day', reason: `'scan_date ' || scan_date || ' in the folder of ' || folder_day` }
  switch (spec.file) {
    case 'follower_counts.parquet':
      return [onDay]
    case 'tweets.parquet':
      return [{
        where: 'try_cast(created_at as timestamptz) >= cast(folder_day + 1 as timestamptz)',
        reason: `'created_at ' || created_at || ' is after the day of its folder (' || folder_day || ')'`,
      }]
    case 'follow_scans.parquet':
      return [
        onDay,
        { where: 'scan_date <= folder_until and cast(scanned_at as date) <> scan_date',
          reason: `'scanned_at ' || scanned_at || ' is not on scan_date ' || scan_date` },
      ]
    default:
      return []
  }
}

/** Every row rule of a file in one scan: the first bad row (folder order, then file order), with the first rule it breaks. */
async function checkRows(conn: DuckDBConnection, spec: RawFile, folders: RawFolder[]): Promise<void> {
  const rules = [...columnRules(spec), ...folderRules(spec)]
  if (!rules.length) return
  const [bad] = await queryRows(
    conn,
    `select ord, file_row_number, case ${rules.map((r) => `when ${r.where} then ${r.reason}`).join(' ')} end as reason
     from ${rowsOf(spec.file, folders)}
     where ${rules.map((r) => `(${r.where})`).join(' or ')}
     order by ord, file_row_number limit 1`,
  )
  if (bad) throw new RawInputError(fileName(folders[Number(bad.ord)], spec.file), String(bad.reason), Number(bad.file_row_number) + 1)
}

/**
 * Every text of a file is valid UTF-8: DuckDB checks a text column's values when it reads them, so each is read once
 * here (the rules above leave out optional texts), and a value that is not fails the file, naming its column and value.
 */
async function checkText(conn: DuckDBConnection, spec: RawFile, folders: RawFolder[]): Promise<void> {
  const texts = Object.entries(spec.columns).filter(([, type]) => type.includes('VARCHAR')).map(([column]) => column)
  const read = (columns: string[]) => queryRows(conn, `select ${columns.map((c) => `count(${c})`).join(', ')} from ${rowsOf(spec.file, folders)}`)
  if (texts.length === 0) return
  try {
    await read(texts)
  } catch (error) {
    // in a batch, the caller reads the folders one by one to name the file
    if (folders.length > 1 || !/not valid UTF-?8/i.test(errorMessage(error))) throw error
    for (const column of texts) {
      await read([column]).catch((bad: unknown) => {
        throw new RawInputError(fileName(folders[0], spec.file), `${column} holds text that is not valid UTF-8: ${errorMessage(bad)}`)
      })
    }
    throw error
  }
}

/** The first row a query over the batch selects (`ord`, `file_row_number`, `id`) fails `file` with `reason(id)`. */
async function failOnFirst(
  conn: DuckDBConnection,
  folders: RawFolder[],
  file: string,
  sql: string,
  reason: (id: string) => string,
): Promise<void> {
  const [bad] = await queryRows(conn, `${sql} order by ord, file_row_number limit 1`)
  if (bad) throw new RawInputError(fileName(folders[Number(bad.ord)], file), reason(String(bad.id)), Number(bad.file_row_number) + 1)
}

/**
 * What a folder's files say of each other: every label id of its label files is defined by its reference table
 * (RawFile.references); every follow scan and follower count (up to `until`) is of an account of its accounts; every
 * followed id is in its accounts or friends.
 */
async function checkAcrossFiles(conn: DuckDBConnection, folders: RawFolder[]): Promise<void> {
  const rows = (file: string) => rowsOf(file, folders)
  for (const spec of RAW_FILES) {
    for (const [column, [target, key]] of Object.entries(spec.references ?? {})) {
      await failOnFirst(
        conn, folders, spec.file,
        `select r.ord, r.file_row_number, r.${column}::varchar as id
         from ${rows(spec.file)} r anti join ${rows(target)} t on t.${key} = r.${column} and t.ord = r.ord`,
        (id) => `unknown ${column} ${id} (not in ${target})`,
      )
    }
  }
  for (const scans of ['follow_scans.parquet', 'follower_counts.parquet']) {
    await failOnFirst(
      conn, folders, scans,
      `select s.ord, s.file_row_number, s.account_id::varchar as id
       from ${rows(scans)} s anti join ${rows('accounts.parquet')} a on a.account_id = s.account_id and a.ord = s.ord
       where s.scan_date <= s.folder_until`,
      (id) => `unknown scanned account_id ${id} (not in accounts.parquet)`,
    )
  }
  await failOnFirst(
    conn, folders, 'follow_scans.parquet',
    `with followed as (
       select ord, file_row_number, unnest(following_ids) as followed_id
       from ${rows('follow_scans.parquet')} where scan_date <= folder_until)
     select ord, file_row_number, followed_id::varchar as id from followed
     anti join ${rows('accounts.parquet')} a on a.account_id = followed.followed_id and a.ord = followed.ord
     anti join ${rows('friends.parquet')} f on f.account_id = followed.followed_id and f.ord = followed.ord`,
    (id) => `unknown followed id ${id} (in neither accounts.parquet nor friends.parquet)`,
  )
}

/** A contract file in every folder of the batch: its row counts, checksums and identities, in folder order. */
async function checkFile(conn: DuckDBConnection, spec: RawFile, folders: RawFolder[]): Promise<RawFileInfo[]> {
  for (const folder of folders) {
    const file = filePath(folder, spec.file)
    if (!fs.existsSync(file)) throw new RawInputError(fileName(folder, spec.file), `missing file (expected ${file})`)
  }
  // taken before the checks: a file replaced while it is checked or hashed is refused (here, or before the commit)
  const identities = folders.map((folder) => fileIdentity(filePath(folder, spec.file)))
  let rows: number[]
  try {
    await checkBatchColumns(conn, spec, folders)
    rows = await countCheckingKey(conn, spec, folders)
    await checkRows(conn, spec, folders)
    await checkText(conn, spec, folders)
  } catch (error) {
    if (error instanceof RawInputError) throw error
    if (folders.length === 1) throw new RawInputError(fileName(folders[0], spec.file), `unreadable Parquet: ${errorMessage(error)}`)
    // copies DuckDB cannot read together: one by one, which names an unreadable one
    const one: RawFileInfo[] = []
    for (const folder of folders) one.push(...(await checkFile(conn, spec, [folder])))
    return one
  }
  return Promise.all(
    folders.map(async (folder, i) => {
      const file = filePath(folder, spec.file)
      const sha256 = await sha256File(file)
      if (fileIdentity(file) !== identities[i]) throw new RawInputError(fileName(folder, spec.file), CHANGED_DURING_BUILD)
      return { file: fileName(folder, spec.file), rows: rows[i], sha256, identity: identities[i] }
    }),
  )
}

/** The folders in batches of at most BATCH_BYTES of contract files (at least one folder each). */
function batches(folders: RawFolder[]): RawFolder[][] {
  const size = (folder: RawFolder) =>
    RAW_FILES.reduce((n, spec) => n + (fs.statSync(filePath(folder, spec.file), { throwIfNoEntry: false })?.size ?? 0), 0)
  const out: RawFolder[][] = []
  let bytes = Infinity
  for (const folder of folders) {
    const next = size(folder)
    if (bytes + next > BATCH_BYTES) {
      out.push([])
      bytes = 0
    }
    out.at(-1)!.push(folder)
    bytes += next
  }
  return out
}

/**
 * Check every raw file of the folders against the contract; returns row counts and checksums for the manifest,
 * folder by folder.
 * @example const files = await validateRaw(connect, [{ dir: 'raw/2026-11-22', prefix: '2026-11-22/', day: '2026-11-22', until: '2026-11-22' }])
 */
export async function validateRaw(connect: () => Promise<DuckDBConnection>, folders: RawFolder[], parallel = 2): Promise<RawFileInfo[]> {
  const infos: RawFileInfo[] = []
  for (const batch of batches(folders)) {
    const perFile = await fanOut(RAW_FILES, parallel, connect, (conn, spec) => checkFile(conn, spec, batch))
    const conn = await connect()
    try {
      await checkAcrossFiles(conn, batch).catch(async (error) => {
        if (error instanceof RawInputError || batch.length === 1) throw error
        for (const folder of batch) await checkAcrossFiles(conn, [folder])
      })
    } finally {
      conn.closeSync()
    }
    infos.push(...batch.flatMap((_, i) => perFile.map((copies) => copies[i])))
  }
  return infos
}

/**
 * Fail when a raw file changed on disk since validateRaw read it (the models read the raw files more than once, so
 * a raw folder replaced mid-build would mix two versions).
 */
export function assertRawUnchanged(rawDir: string, validated: RawFileInfo[]): void {
  for (const info of validated) {
    const file = path.join(rawDir, info.file)
    if (!fs.existsSync(file) || fileIdentity(file) !== info.identity) {
      throw new RawInputError(info.file, CHANGED_DURING_BUILD)
    }
  }
}
