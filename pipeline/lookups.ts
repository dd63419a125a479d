/**
 * API lookups recorded by the server (`DATA_DIR/lookups/<YYYY-MM-DD>.ndjson`, one `{at, operation, platform_id}` per
 * line) feed top_researched.parquet. A missing or empty folder means no lookups.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { runSqlFile, setVariables } from './duckdb.ts'

/** Append every `*.ndjson` file of `dir` to stg_lookups; returns the files read. */
export async function loadLookups(conn: DuckDBConnection, dir: string | undefined): Promise<string[]> {
  if (!dir || !fs.existsSync(dir)) return []
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.ndjson'))
    .sort()
    .map((f) => path.resolve(dir, f))
  if (files.length === 0) return []
  await setVariables(conn, { lookup_files: files })
  await runSqlFile(conn, 'staging/stg_lookups_append.sql')
  return files
}
