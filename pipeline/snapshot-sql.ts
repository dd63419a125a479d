/**
 * SQL over a published snapshot for analysts: one DuckDB view per Parquet file of `snapshots/current` (view name =
 * file name without `.parquet`), and a plain-text table printer. Used by `npm run sql` and the documented queries' test.
 *
 * @example const s = await openSnapshotSql('snapshots'); console.log(formatTable(await s.query('select 1 as x'))); s.close()
 */
import fs from 'node:fs'
import path from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { sqlString } from './duckdb.ts'

export interface QueryResult {
  columns: string[]
  rows: unknown[][]
}

export async function openSnapshotSql(snapshotsDir: string) {
  const current = path.join(snapshotsDir, 'current')
  if (!fs.existsSync(current)) throw new Error(`no snapshot at ${current}: run npm run build first`)
  const dir = fs.realpathSync(current)
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  await conn.run(`set TimeZone = 'UTC'`)
  const views = fs.readdirSync(dir).filter((f) => f.endsWith('.parquet')).map((f) => f.slice(0, -'.parquet'.length))
  for (const view of views) {
    await conn.run(`create view ${view} as select * from read_parquet(${sqlString(path.join(dir, `${view}.parquet`))})`)
  }
  return {
    dir,
    views,
    async query(sql: string): Promise<QueryResult> {
      const reader = await conn.runAndReadAll(sql)
      return { columns: reader.columnNames(), rows: reader.getRowsJson() }
    },
    close() {
      conn.closeSync()
      instance.closeSync()
    },
  }
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** A result as an aligned text table with a row count. */
export function formatTable({ columns, rows }: QueryResult): string {
  const cells = rows.map((r) => r.map(cell))
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i].length)))
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join(' | ').trimEnd()
  const out = [line(columns), widths.map((w) => '-'.repeat(w)).join('-+-'), ...cells.map(line)]
  out.push(`(${rows.length} row${rows.length === 1 ? '' : 's'})`)
  return out.join('\n')
}
