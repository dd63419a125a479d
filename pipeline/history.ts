/**
 * Score history across builds: `snapshots/history/scores/<date>.parquet` (platform_id, platform_score, rank for
 * scores > 0). Written with write-temp-then-rename; read back as stg_score_history for the look-back dates.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { runSqlFile, setVariables, sqlString } from './duckdb.ts'

export function historyDir(snapshotsDir: string): string {
  return path.join(snapshotsDir, 'history', 'scores')
}

/** `date` shifted by `days` (negative = earlier), as YYYY-MM-DD. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** Write int_scores as the history file of `date`, atomically replacing an earlier one. */
export async function writeScoreHistory(conn: DuckDBConnection, snapshotsDir: string, date: string): Promise<string> {
  const dir = historyDir(snapshotsDir)
  fs.mkdirSync(dir, { recursive: true })
  const final = path.join(dir, `${date}.parquet`)
  const temp = path.join(dir, `.${date}.parquet.tmp-${process.pid}`)
  await conn.run(
    `copy (select platform_id, platform_score, rank from int_scores where platform_score > 0 order by platform_id)
     to ${sqlString(temp)} (format parquet, compression zstd)`,
  )
  fs.renameSync(temp, final)
  return final
}

/** Days of score history the build reads (score_history.parquet spans them; the look-backs are 1, 7 and 30). */
export const HISTORY_DAYS = 365

/** Load the history files of the HISTORY_DAYS days before `date` that exist into stg_score_history. */
export async function loadScoreHistory(conn: DuckDBConnection, snapshotsDir: string, date: string): Promise<string[]> {
  const loaded: string[] = []
  for (let days = HISTORY_DAYS - 1; days >= 1; days--) {
    const day = addDays(date, -days)
    const file = path.join(historyDir(snapshotsDir), `${day}.parquet`)
    if (!fs.existsSync(file)) continue
    await setVariables(conn, { history_file: file, history_date: { date: day } })
    await runSqlFile(conn, 'staging/stg_score_history_append.sql')
    loaded.push(day)
  }
  return loaded
}
