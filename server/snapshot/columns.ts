/**
 * Streaming a DuckDB query chunk by chunk into typed arrays. Snapshot files are written in serving order and a plain
 * scan keeps file order (DuckDB preserves insertion order), so no scan sorts. Queries cast every column to one of four physical
 * kinds (INTEGER, DOUBLE, UBIGINT, VARCHAR) so the copy is a typed-array `set` per chunk, never a per-value
 * conversion (except strings).
 */
import type { DuckDBBlobVector, DuckDBConnection, DuckDBDataChunk, DuckDBListVector, DuckDBVector } from '@duckdb/node-api'

/** The typed-array view DuckDB exposes on fixed-width vectors (DuckDB memory: copy, never keep). */
function items<T>(vector: DuckDBVector): T {
  return (vector as unknown as { items: T }).items
}

export const int32Items = (v: DuckDBVector) => items<Int32Array>(v)
export const float64Items = (v: DuckDBVector) => items<Float64Array>(v)
export const uint64Items = (v: DuckDBVector) => items<BigUint64Array>(v)
/** The values of an INTEGER or DOUBLE vector, whichever it is. */
export const numberItems = (v: DuckDBVector) => items<Int32Array | Float64Array>(v)

/**
 * Run `sql` and call `onChunk` for every chunk with the absolute offset of its first row.
 * @example await scan(conn, 'SELECT x::INTEGER FROM t', (chunk, offset) => out.set(int32Items(chunk.getColumnVector(0)).subarray(0, chunk.rowCount), offset))
 */
export async function scan(
  conn: DuckDBConnection,
  sql: string,
  onChunk: (chunk: DuckDBDataChunk, offset: number) => void,
): Promise<number> {
  const result = await conn.stream(sql)
  let offset = 0
  for (;;) {
    const chunk = await result.fetchChunk()
    if (!chunk || chunk.rowCount === 0) break
    onChunk(chunk, offset)
    offset += chunk.rowCount
  }
  return offset
}

/** Copy the first `rows` values of a fixed-width vector into `target` at `offset` (converting to the target's type). */
export function copyInto(
  target: Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float64Array | BigUint64Array,
  source: Int32Array | Float64Array | BigUint64Array,
  rows: number,
  offset: number,
): void {
  ;(target as Int32Array).set((source as Int32Array).subarray(0, rows), offset)
}

/** CSR offsets from an owner column sorted ascending: `offsets[o]..offsets[o+1]` are owner o's rows. */
export class OffsetsBuilder {
  readonly offsets: Int32Array
  constructor(owners: number) {
    this.offsets = new Int32Array(owners + 1)
  }
  /** Count the owners of one chunk. */
  add(ownerColumn: Int32Array, rows: number): void {
    for (let i = 0; i < rows; i++) this.offsets[ownerColumn[i] + 1]++
  }
  /** Turn counts into offsets (call once, after the last chunk). */
  finish(): Int32Array {
    for (let i = 1; i < this.offsets.length; i++) this.offsets[i] += this.offsets[i - 1]
    return this.offsets
  }
}

/** Rows per aggregated string: one decode per group instead of one per value (~50x faster for millions of rows). */
const STRING_GROUP_ROWS = 16_384
const NULL_MARK = '\u0001'

/**
 * Every value of some VARCHAR expressions in the order of `dense` (a 0..N-1 row-number column), NULL as null: one
 * array per expression. Values are joined per group of rows in DuckDB (one scan for all expressions), decoded once
 * per group and split on NUL (removed from values).
 * @example const [usernames, names] = await readStrings(conn, "read_parquet('accounts.parquet')", ['username', 'name'], 'account_idx', count)
 */
export async function readStrings(
  conn: DuckDBConnection,
  source: string,
  expressions: string[],
  dense: string,
  rows: number,
): Promise<(string | null)[][]> {
  const out = expressions.map(() => new Array<string | null>(rows))
  const joined = expressions.map(
    (e) => `string_agg(coalesce(replace(${e}, chr(0), ''), chr(1)), chr(0) ORDER BY ${dense})`,
  )
  await scan(
    conn,
    `SELECT (${dense} // ${STRING_GROUP_ROWS})::INTEGER AS g, ${joined.join(', ')} FROM ${source} GROUP BY g ORDER BY g`,
    (chunk) => {
      const group = int32Items(chunk.getColumnVector(0))
      out.forEach((column, c) => {
        const vector = chunk.getColumnVector(c + 1)
        for (let i = 0; i < chunk.rowCount; i++) {
          const values = (vector.getItem(i) as string).split('\0')
          const base = group[i] * STRING_GROUP_ROWS
          for (let k = 0; k < values.length; k++) column[base + k] = values[k] === NULL_MARK ? null : values[k]
        }
      })
    },
  )
  return out
}

/**
 * The UTF-8 bytes of a VARCHAR expression, back to back in `dense` order, handed to `sink` in order (views of DuckDB memory, valid during the call; never held
 * whole in memory); returns the offsets (row i is bytes offsets[i]..offsets[i+1]). NULL and '' are both empty
 * (callers keep nullness separately). One scan: each group of rows comes as one blob plus its values' byte lengths.
 */
export async function readUtf8(
  conn: DuckDBConnection,
  source: string,
  expression: string,
  dense: string,
  rows: number,
  sink: (bytes: Uint8Array) => void,
): Promise<Uint32Array> {
  const offsets = new Uint32Array(rows + 1)
  let total = 0
  let next = 0
  await scan(
    conn,
    `SELECT (${dense} // ${STRING_GROUP_ROWS})::INTEGER AS g,
            list(coalesce(strlen(${expression}), 0)::INTEGER ORDER BY ${dense}),
            encode(string_agg(coalesce(${expression}, ''), '' ORDER BY ${dense}))
     FROM ${source} GROUP BY g ORDER BY g`,
    (chunk) => {
      const group = int32Items(chunk.getColumnVector(0))
      const list = chunk.getColumnVector(1) as DuckDBListVector
      const lengths = int32Items(list.childVector)
      const joined = chunk.getColumnVector(2) as DuckDBBlobVector
      for (let i = 0; i < chunk.rowCount; i++) {
        if (group[i] * STRING_GROUP_ROWS !== next) throw new Error(`${expression}: ${dense} is not 0..${rows - 1}`)
        const start = list.getEntryOffset(i)
        for (let k = 0; k < list.getEntryLength(i); k++) {
          offsets[next++] = total
          total += lengths[start + k]
        }
        if (total > 0xffffffff) throw new Error(`${expression}: more than 4 GiB of text`)
        sink(joined.getItemBytes(i)!)
      }
    },
  )
  if (next !== rows) throw new Error(`${expression}: ${dense} is not 0..${rows - 1}`)
  offsets[rows] = total
  return offsets
}
