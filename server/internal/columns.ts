/**
 * Streaming a DuckDB query chunk by chunk into typed arrays. Queries cast every column to one of four physical
 * kinds (INTEGER, DOUBLE, UBIGINT, VARCHAR) so the copy is a typed-array `set` per chunk, never a per-value
 * conversion (except strings).
 */
import type { DuckDBConnection, DuckDBDataChunk, DuckDBVector } from '@duckdb/node-api'

/** The typed-array view DuckDB exposes on fixed-width vectors (DuckDB memory: copy, never keep). */
function items<T>(vector: DuckDBVector): T {
  return (vector as unknown as { items: T }).items
}

export const int32Items = (v: DuckDBVector) => items<Int32Array>(v)
export const float64Items = (v: DuckDBVector) => items<Float64Array>(v)
export const uint64Items = (v: DuckDBVector) => items<BigUint64Array>(v)

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

/** Copy the first `rows` values of a fixed-width vector into `target` at `offset`. */
export function copyInto(
  target: Int32Array | Float64Array | BigUint64Array,
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
