/**
 * Raw ingest check: every file of the raw contract exists, is readable Parquet, has the contract's column types,
 * and has no null or duplicated key. A failure names the file, the row where known (1-based file row) and the reason.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { queryRows, queryValue, sqlString } from './duckdb.ts'
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

async function sha256(file: string): Promise<string> {
  const hash = crypto.createHash('sha256')
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
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

async function checkKey(conn: DuckDBConnection, spec: RawFile, file: string): Promise<void> {
  const key = spec.key.join(', ')
  const source = `read_parquet(${sqlString(file)})`
  const numbered = `read_parquet(${sqlString(file)}, file_row_number = true)`
  const nullRow = await queryValue(
    conn,
    `select min(file_row_number) from ${numbered} where ${spec.key.map((k) => `${k} is null`).join(' or ')}`,
  )
  if (nullRow !== null && nullRow !== undefined) {
    throw new RawInputError(spec.file, `null key (${key})`, Number(nullRow) + 1)
  }
  const duplicated = await queryValue(
    conn,
    `select exists (select 1 from ${source} group by ${key} having count(*) > 1)`,
  )
  if (!duplicated) return
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

async function checkParses(conn: DuckDBConnection, spec: RawFile, file: string): Promise<void> {
  for (const [column, type] of Object.entries(spec.parses ?? {})) {
    const [bad] = await queryRows(
      conn,
      `select file_row_number, ${column} as value from read_parquet(${sqlString(file)}, file_row_number = true)
       where ${column} is not null and try_cast(${column} as ${type}) is null order by file_row_number limit 1`,
    )
    if (bad) {
      throw new RawInputError(spec.file, `${column} ${JSON.stringify(bad.value)} is not a valid ${type}`, Number(bad.file_row_number) + 1)
    }
  }
}

/**
 * Check every raw file against the contract; returns row counts and checksums for the manifest.
 * @example const files = await validateRaw(conn, 'raw')
 */
export async function validateRaw(conn: DuckDBConnection, rawDir: string): Promise<RawFileInfo[]> {
  const infos: RawFileInfo[] = []
  for (const spec of RAW_FILES) {
    const file = path.join(rawDir, spec.file)
    if (!fs.existsSync(file)) throw new RawInputError(spec.file, `missing file (expected ${file})`)
    const source = `read_parquet(${sqlString(file)})`
    await checkColumns(conn, spec, source)
    let rows: number
    try {
      rows = Number(await queryValue(conn, `select count(*) from ${source}`))
      await checkKey(conn, spec, file)
      await checkParses(conn, spec, file)
    } catch (error) {
      if (error instanceof RawInputError) throw error
      throw new RawInputError(spec.file, `unreadable Parquet: ${errorMessage(error)}`)
    }
    infos.push({ file: spec.file, rows, sha256: await sha256(file), identity: fileIdentity(file) })
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
      throw new RawInputError(info.file, 'changed on disk during the build; rebuild once the raw folder is complete')
    }
  }
}
