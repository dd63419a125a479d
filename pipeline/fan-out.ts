/**
 * Independent work of a build in parallel, bounded with `p-limit`: each task gets its own connection to the build's
 * DuckDB, and every task has settled before the first failure is thrown, so the database never closes under a
 * running query.
 *
 * @example const sizes = await fanOut(MARTS, 2, () => db.connect(), (conn, mart) => writeMart(conn, mart))
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import pLimit from 'p-limit'

export async function fanOut<T, R>(
  items: readonly T[],
  parallel: number,
  connect: () => Promise<DuckDBConnection>,
  work: (conn: DuckDBConnection, item: T) => Promise<R>,
): Promise<R[]> {
  const limit = pLimit(parallel)
  const settled = await Promise.allSettled(
    items.map((item) =>
      limit(async () => {
        const conn = await connect()
        try {
          return await work(conn, item)
        } finally {
          conn.closeSync()
        }
      }),
    ),
  )
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected')
  if (failed) throw failed.reason
  return settled.map((r) => (r as PromiseFulfilledResult<R>).value)
}
