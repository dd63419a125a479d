/**
 * SQL over a published snapshot for analysts: one DuckDB view per Parquet file of `snapshots/current` (view name =
 * file name without `.parquet`), the views derived from them (DERIVED_VIEWS), and a plain-text table printer. Used
 * by `npm run sql` and the documented queries' test.
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

/**
 * Views over the files' views, created with them. `score_history_daily`: every account's score on every scored date
 * with a score > 0 (score_history.parquet holds a row per change; an account's score on a scored date of
 * score_dates.parquet is its last row on or before it). Columns and sort as score_history.
 */
export const DERIVED_VIEWS: Record<string, string> = {
  score_history_daily: `
    select h.account_idx, h.platform_id, d.date, h.platform_score, h.rank
    from (select distinct account_idx from score_history) a
    cross join score_dates d
    asof join score_history h on h.account_idx = a.account_idx and h.date <= d.date
    where h.platform_score > 0
    order by h.account_idx, d.date desc`,
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
  for (const [view, sql] of Object.entries(DERIVED_VIEWS)) {
    await conn.run(`create view ${view} as ${sql}`)
    views.push(view)
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
