/**
 * The format of a serving folder (docs/snapshot.md, "serving/"): `columns.json` (`{ format: SERVING_FORMAT, columns:
 * { <name>: { type, length } } }`) and one `<name>.bin` per column, `length` little-endian values of `type` back to
 * back; a text column is three of them (writeText). The build writes them (pipeline/serving-columns.ts,
 * pipeline/history-parts.ts); the server reads them with the same arrays (server/snapshot/serving-files.ts).
 *
 * @example const out = new ServingWriter(dir); await writeColumns(conn, out, 'accounts', { 'accounts.rank': ['i32', 'rank::INTEGER'] }); out.finish()
 */
import fs from 'node:fs'
import path from 'node:path'
import type { DuckDBBlobVector, DuckDBConnection, DuckDBDataChunk, DuckDBVector } from '@duckdb/node-api'
import { fileError, writeFileNamed } from './file-write.ts'

/**
 * The layout version of `serving/`, raised with every change of its files (CHANGELOG.md says which releases need a
 * rebuild); the server reads this one only.
 */
export const SERVING_FORMAT = 9

/** SQL for the days from 1970-01-01 to the DATE `column` (the serving columns' dates). */
export const sqlDay = (column: string) => `(${column} - DATE '1970-01-01')::INTEGER`

/** The column types of `columns.json` and their arrays (the server reads them with these too). */
export const SERVING_ARRAYS = {
  u8: Uint8Array,
  i16: Int16Array,
  u16: Uint16Array,
  i32: Int32Array,
  u32: Uint32Array,
  f64: Float64Array,
  u64: BigUint64Array,
}
export type ColumnType = keyof typeof SERVING_ARRAYS
/** Any typed array of the column types (DuckDB's views included). */
type AnyArray = Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float64Array | BigUint64Array

/** The typed-array view DuckDB gives on a fixed-width vector (INTEGER, DOUBLE or UBIGINT; DuckDB's memory: copied). */
export const items = (vector: DuckDBVector) => (vector as unknown as { items: Int32Array | Float64Array | BigUint64Array }).items

/** The chunks of `sql`'s result, streamed (read each one's columns with items() before asking for the next). */
export async function* chunks(conn: DuckDBConnection, sql: string): AsyncGenerator<DuckDBDataChunk> {
  const result = await conn.stream(sql)
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) yield chunk
}

/** Bytes a column gathers before they go to its file: a few large writes instead of one per chunk. */
const WRITE_BUFFER = 256 * 1024

/** A column's open file and the bytes appended to it not written yet. */
interface OpenColumn {
  file: string
  fd: number
  pending: Uint8Array
  used: number
}

/** The columns of one `serving/` folder, each appended chunk by chunk to its file. */
export class ServingWriter {
  readonly columns: Record<string, { type: ColumnType; length: number }> = {}
  /** each column's file, open for appending until close() */
  private readonly files = new Map<string, OpenColumn>()

  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true })
  }

  /** Append `values` (converted to `type`) to column `name`. */
  append(name: string, type: ColumnType, values: AnyArray): void {
    const array = new SERVING_ARRAYS[type](values.length)
    ;(array as Int32Array).set(values as Int32Array)
    this.appendBytes(name, type, array)
  }

  /** Append `array` (of `type`) to column `name`; its bytes are copied or written before this returns. */
  appendBytes(name: string, type: ColumnType, array: AnyArray): void {
    const column = (this.columns[name] ??= { type, length: 0 })
    if (column.type !== type) throw new Error(`serving column ${name}: ${type} after ${column.type}`)
    let open = this.files.get(name)
    if (open === undefined) {
      const file = path.join(this.dir, `${name}.bin`)
      // a new file each: never appended to one already there (a published snapshot's month may share it through a link)
      this.files.set(name, (open = { file, fd: fs.openSync(file, 'wx'), pending: new Uint8Array(0), used: 0 }))
    }
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength)
    if (open.used + bytes.length > open.pending.length) this.flush(open)
    if (bytes.length >= WRITE_BUFFER) writeAll(open, bytes)
    else {
      if (open.pending.length === 0) open.pending = new Uint8Array(WRITE_BUFFER)
      open.pending.set(bytes, open.used)
      open.used += bytes.length
    }
    column.length += array.length
  }

  private flush(open: OpenColumn): void {
    writeAll(open, open.pending.subarray(0, open.used))
    open.used = 0
  }

  close(): void {
    try {
      for (const open of this.files.values()) this.flush(open)
    } finally {
      for (const { fd } of this.files.values()) fs.closeSync(fd)
      this.files.clear()
    }
  }

  /** Close the files and write `columns.json` (and `reference.json`, the small tables, when given). */
  finish(reference?: unknown): void {
    this.close()
    if (reference !== undefined) writeFileNamed(path.join(this.dir, 'reference.json'), JSON.stringify(reference))
    writeFileNamed(path.join(this.dir, 'columns.json'), JSON.stringify({ format: SERVING_FORMAT, columns: this.columns }, null, 2) + '\n')
  }
}

/** Write all of `bytes` to the column's file: a write may take fewer bytes than it is given (a disk filling up). */
function writeAll(open: OpenColumn, bytes: Uint8Array): void {
  try {
    for (let done = 0; done < bytes.length; ) done += fs.writeSync(open.fd, bytes, done)
  } catch (error) {
    throw fileError(open.file, error)
  }
}

/** Fixed-width columns of a mart (or query) in its order: `columns` maps each column name to its type and SQL (cast to INTEGER, DOUBLE or UBIGINT). */
export async function writeColumns(conn: DuckDBConnection, out: ServingWriter, source: string, columns: Record<string, [ColumnType, string]>, order = ''): Promise<void> {
  const entries = Object.entries(columns)
  // every column exists, an empty table's too (a first night has no follow events yet)
  for (const [name, [type]] of entries) out.appendBytes(name, type, new SERVING_ARRAYS[type](0))
  for await (const chunk of chunks(conn, `SELECT ${entries.map(([, [, sql]]) => sql).join(', ')} FROM ${source} ${order}`)) {
    entries.forEach(([name, [type]], c) => out.append(name, type, items(chunk.getColumnVector(c)).subarray(0, chunk.rowCount)))
  }
}

/** Rows per aggregated text group: one blob per group instead of one value per row. */
const TEXT_GROUP_ROWS = 16_384

/**
 * A text column `name` of `expression` over `source`, in the order of `dense` (a 0..N-1 row number): `<name>.offsets`
 * (f64, rows + 1: the UTF-8 bytes of row i are offsets[i] .. offsets[i+1]-1 of `<name>.utf8`, u8) and, when it can
 * be NULL, `<name>.null` (u8, 1 for NULL). The lengths and NULLs are read as plain columns, the bytes as one blob per
 * group of rows.
 */
export async function writeText(conn: DuckDBConnection, out: ServingWriter, name: string, source: string, expression: string, dense: string, nullable: boolean): Promise<void> {
  let total = 0
  out.appendBytes(`${name}.offsets`, 'f64', Float64Array.of(0))
  if (nullable) out.appendBytes(`${name}.null`, 'u8', new Uint8Array(0))
  const lengths = `SELECT coalesce(strlen(${expression}), 0)::INTEGER, (${expression} IS NULL)::INTEGER FROM ${source} ORDER BY ${dense}`
  for await (const chunk of chunks(conn, lengths)) {
    const bytes = (items(chunk.getColumnVector(0)) as Int32Array).subarray(0, chunk.rowCount)
    const ends = new Float64Array(bytes.length)
    for (let i = 0; i < bytes.length; i++) ends[i] = total += bytes[i]
    out.appendBytes(`${name}.offsets`, 'f64', ends)
    if (nullable) out.append(`${name}.null`, 'u8', items(chunk.getColumnVector(1)).subarray(0, chunk.rowCount))
  }
  out.appendBytes(`${name}.utf8`, 'u8', new Uint8Array(0))
  const groups = `SELECT encode(string_agg(coalesce(${expression}, ''), '' ORDER BY ${dense}))
     FROM ${source} GROUP BY ${dense} // ${TEXT_GROUP_ROWS} ORDER BY ${dense} // ${TEXT_GROUP_ROWS}`
  for await (const chunk of chunks(conn, groups)) {
    const joined = chunk.getColumnVector(0) as DuckDBBlobVector
    for (let i = 0; i < chunk.rowCount; i++) out.appendBytes(`${name}.utf8`, 'u8', joined.getItemBytes(i)!)
  }
  const written = out.columns[`${name}.utf8`].length
  if (written !== total) throw new Error(`serving column ${name}: ${written} bytes of text for offsets up to ${total}`)
}
