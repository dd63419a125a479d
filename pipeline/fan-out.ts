/**
 * Independent work of a build in parallel, bounded with `p-limit`: each task gets its own connection to the build's
 * DuckDB, and every task has settled before the first failure is thrown, so the database never closes under a
 * running query; later failures are logged (`fan_out.also_failed`).
 *
 * @example const sizes = await fanOut(MARTS, 2, () => db.connect(), (conn, mart) => writeMart(conn, mart))
 * @example const [files] = await settleAll([writeMarts(connect, dir), writeServingColumns(conn, dir)])
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import pLimit from 'p-limit'
import { log } from '../log/logger.ts'

export async function fanOut<T, R>(
  items: readonly T[],
  parallel: number,
  connect: () => Promise<DuckDBConnection>,
  work: (conn: DuckDBConnection, item: T) => Promise<R>,
): Promise<R[]> {
  const limit = pLimit(parallel)
  return settleAll(
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
}

/** The values of `tasks` once every one has settled; the first failure (in order) is thrown then, the others logged. */
export async function settleAll<T extends readonly unknown[]>(tasks: readonly [...{ [K in keyof T]: Promise<T[K]> }]): Promise<T> {
  const settled = await Promise.allSettled(tasks)
  const [failed, ...others] = settled.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
  for (const other of others) log.error('fan_out.also_failed', { error: other.reason })
  if (failed) throw failed.reason
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T
}
