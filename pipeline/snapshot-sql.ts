/**
 * SQL over a published snapshot for analysts: one DuckDB view per Parquet file of `snapshots/current` (view name =
 * file name without `.parquet`), one per history table over its parts (pipeline/history-tables.ts), the views
 * derived from them (DERIVED_VIEWS), and a plain-text table printer. Used by `npm run sql` and the tests.
 *
 * @example const s = await openSnapshotSql('snapshots'); console.log(formatTable(await s.query('select 1 as x'))); s.close()
 */
import fs from 'node:fs'
import path from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { sqlString } from './duckdb.ts'
import { HISTORY_TABLES, PART_FILE } from './history-tables.ts'

export interface QueryResult {
  columns: string[]
  rows: unknown[][]
}

/**
 * Views over the files' views, created with them.
 * - `score_history_daily`: every account's score on every scored date with a score > 0 (score_history holds a row per
 *   change; an account's score on a scored date of score_dates.parquet is its last row on or before it), and its rank
 *   that date (score_ranks: the last 30 days; NULL before). Columns as score_history, then rank; sort as
 *   score_history.
 * - `mentions`: one row per (mentioned known account, tweet), self-mentions excluded; sort: target_idx, tweet_idx
 *   (= created_at desc, tweet_id desc). `smart_mentions`: its rows whose author is smart (monitored, active, not
 *   suspended). The server builds the same lists from the tweets parts (server/snapshot/mentions.ts).
 */
export const DERIVED_VIEWS: Record<string, string> = {
  mentions: `
    select a.account_idx as target_idx, m.target_id, m.tweet_idx, m.author_idx, m.author_id, m.created_at,
      epoch(m.created_at)::bigint as epoch_s
    from (select tweet_idx, author_idx, author_id, created_at, unnest(list_distinct(mentioned_ids)) as target_id from tweets) m
    join accounts a on a.platform_id = m.target_id
    where m.target_id <> m.author_id
    order by target_idx, tweet_idx`,
  smart_mentions: `
    select m.* from mentions m join accounts a on a.account_idx = m.author_idx and a.is_smart
    order by m.target_idx, m.tweet_idx`,
  score_history_daily: `
    select h.account_idx, h.platform_id, d.date, h.platform_score, r.rank
    from (select distinct account_idx from score_history) a
    cross join score_dates d
    asof join score_history h on h.account_idx = a.account_idx and h.date <= d.date
    left join score_ranks r on r.platform_id = h.platform_id and r.date = d.date
    where h.platform_score > 0
    order by h.account_idx, d.date desc`,
}

/** The folder `<snapshotsDir>/current` points to (fails when there is none). */
export function currentSnapshotDir(snapshotsDir: string): string {
  const current = path.join(snapshotsDir, 'current')
  if (!fs.existsSync(current)) throw new Error(`no snapshot at ${current}: run npm run build first`)
  return fs.realpathSync(current)
}

export async function openSnapshotSql(snapshotsDir: string) {
  const dir = currentSnapshotDir(snapshotsDir)
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  await conn.run(`set TimeZone = 'UTC'`)
  const views = await createSnapshotViews(conn, dir)
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

/** The views over the snapshot folder `dir` (see above) in `conn`; their names. */
export async function createSnapshotViews(conn: DuckDBConnection, dir: string): Promise<string[]> {
  const views = snapshotViews(dir)
  for (const [, statement] of views) await conn.run(statement)
  return views.map(([name]) => name)
}

/**
 * The `create view` statement of each view over the snapshot folder `dir` (see above), in creation order, named: what
 * `npm run sql -- --views` prints for another DuckDB.
 */
export function snapshotViews(dir: string): [string, string][] {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.parquet')).map((f) => f.slice(0, -'.parquet'.length))
  const views: [string, string][] = files.map((view) => [
    view,
    `create view ${view} as select * from read_parquet(${sqlString(path.join(dir, `${view}.parquet`))})`,
  ])
  for (const table of HISTORY_TABLES) {
    const folder = path.join(dir, table.name)
    const parts = fs.existsSync(folder) ? fs.readdirSync(folder).map((part) => path.join(folder, part, PART_FILE)) : []
    const columns = Object.entries(table.columns)
    const source = parts.length > 0
      ? `read_parquet([${parts.map(sqlString).join(', ')}])`
      : `(select ${columns.map(([name, type]) => `null::${type} as ${name}`).join(', ')} limit 0)`
    views.push([table.name, `create view ${table.name} as with parts as (select * from ${source}) ${table.view}`])
  }
  for (const [view, sql] of Object.entries(DERIVED_VIEWS)) views.push([view, `create view ${view} as ${sql}`])
  return views
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** A result as an aligned text table with a row count. */
export function formatTable({ columns, rows }: QueryResult): string {
  const cells = rows.map((r) => r.map(cell))
  // a loop, not Math.max(...column): a spread of a large result's cells overflows the call stack
  const widths = columns.map((c, i) => cells.reduce((width, r) => Math.max(width, r[i].length), c.length))
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join(' | ').trimEnd()
  const out = [line(columns), widths.map((w) => '-'.repeat(w)).join('-+-'), ...cells.map(line)]
  out.push(`(${rows.length} row${rows.length === 1 ? '' : 's'})`)
  return out.join('\n')
}
