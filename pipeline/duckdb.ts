/**
 * DuckDB for the pipeline: one in-memory database per build, sized for a shared 2-core / 24 GiB box, spilling to a
 * temporary directory, and small helpers to run the `.sql` model files with named variables.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import { log } from '../log/logger.ts'

export const SQL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sql')

export interface PipelineDb {
  conn: DuckDBConnection
  /** another connection to the same database, for work that runs in parallel (close it when done) */
  connect(): Promise<DuckDBConnection>
  close(): void
}

/**
 * Open a fresh in-memory database. `PIPELINE_MEMORY_LIMIT` (default 5GB: with the process's own memory the peak RSS stays
 * well under 8 GiB) and `PIPELINE_THREADS` (default: all cores) tune it. Spills go to `spillDir` (created; a build
 * puts it beside its snapshot's temporary folder, so a killed build's spills are removed with it by the next build),
 * else to a new folder under the OS temp folder; either is removed on close.
 * @example const db = await openPipelineDb(); await db.conn.run('select 1'); db.close()
 */
export async function openPipelineDb(spillDir?: string): Promise<PipelineDb> {
  const tempDir = spillDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-duckdb-'))
  if (spillDir) fs.mkdirSync(spillDir)
  const instance = await DuckDBInstance.create(':memory:', { ...tuning(), temp_directory: tempDir, preserve_insertion_order: 'true' })
  const conn = await instance.connect()
  // every connection of the instance inherits a global setting
  await conn.run(`set global TimeZone = 'UTC'`)
  return {
    conn,
    connect: () => instance.connect(),
    close() {
      conn.closeSync()
      instance.closeSync()
      fs.rmSync(tempDir, { recursive: true, force: true })
    },
  }
}

/** DuckDB's settings from `PIPELINE_MEMORY_LIMIT` and `PIPELINE_THREADS`. */
function tuning() {
  return {
    memory_limit: process.env.PIPELINE_MEMORY_LIMIT ?? '5GB',
    threads: process.env.PIPELINE_THREADS ?? String(os.availableParallelism()),
  }
}

/**
 * Fails, naming the variables and DuckDB's reason, when DuckDB refuses `PIPELINE_MEMORY_LIMIT` or `PIPELINE_THREADS`
 * (checked before a build starts, as its flags are).
 * @example await checkPipelineTuning() // PIPELINE_MEMORY_LIMIT=bogus: throws
 */
export async function checkPipelineTuning(): Promise<void> {
  const settings = tuning()
  try {
    ;(await DuckDBInstance.create(':memory:', settings)).closeSync()
  } catch (error) {
    const named = `PIPELINE_MEMORY_LIMIT=${settings.memory_limit}, PIPELINE_THREADS=${settings.threads}`
    throw new Error(`${named}: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** A SQL string literal (single quotes doubled). */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`
}

/** Values the `.sql` files read with `getvariable(name)`. */
export type SqlVariable = string | number | string[] | number[] | { date: string }

function sqlLiteral(value: SqlVariable): string {
  if (typeof value === 'number') return String(value)
  if (typeof value === 'string') return sqlString(value)
  if (Array.isArray(value)) return `[${(value as (string | number)[]).map((v) => sqlLiteral(v)).join(', ')}]`
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value.date)) throw new Error(`invalid date ${value.date}`)
  return `DATE '${value.date}'`
}

/** Set DuckDB variables for the model files. */
export async function setVariables(conn: DuckDBConnection, vars: Record<string, SqlVariable>): Promise<void> {
  const statements = Object.entries(vars).map(([name, value]) => `set variable ${name} = ${sqlLiteral(value)};`)
  if (statements.length > 0) await conn.run(statements.join('\n'))
}

/** Give connection `to` the variables of `from` (DuckDB variables belong to a connection; the model files read them). */
export async function copyVariables(from: DuckDBConnection, to: DuckDBConnection): Promise<void> {
  const variables = await queryRows(from, `select name, value::varchar as value, type from duckdb_variables()`)
  const statements = variables.map(
    ({ name, value, type }) => `set variable ${name} = ${value === null ? 'null' : `cast(${sqlString(String(value))} as ${type})`};`,
  )
  if (statements.length > 0) await to.run(statements.join('\n'))
}

/** Run one model file, e.g. `runSqlFile(conn, 'marts/accounts.sql')`. */
export async function runSqlFile(conn: DuckDBConnection, file: string): Promise<void> {
  await conn.run(fs.readFileSync(path.join(SQL_DIR, file), 'utf8'))
}

/**
 * A runner of model files on `conn`, each logged as a build step with its row count (`counted`: the table to count,
 * the model's own by default; none for a view, which counting would compute: a view over the state's history would
 * read every stored row) and ticking `bar`.
 */
export function stepRunner(conn: DuckDBConnection, bar?: { tick(): void }) {
  return async (layer: string, model: string, counted = model) => {
    const started = Date.now()
    try {
      await runSqlFile(conn, `${layer}/${model}.sql`)
    } catch (error) {
      throw new Error(`model ${layer}/${model} failed: ${error instanceof Error ? error.message : String(error)}`)
    }
    // a table's row count from the catalog (a model's table is written once, by the model); none for a view
    const size = await queryValue(conn, `select estimated_size from duckdb_tables() where database_name = current_database() and table_name = ${sqlString(counted)}`)
    const rows = size === undefined ? undefined : Number(size)
    log.info('build.step', { step: model, layer, rows, ms: Date.now() - started })
    bar?.tick()
  }
}

/** Rows of a query as JSON-safe objects (bigints and big ids as decimal strings). */
export async function queryRows(conn: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  const reader = await conn.runAndReadAll(sql)
  return reader.getRowObjectsJson() as Record<string, unknown>[]
}

/** The single value of a one-row, one-column query, as a JSON-safe value. */
export async function queryValue(conn: DuckDBConnection, sql: string): Promise<unknown> {
  const reader = await conn.runAndReadAll(sql)
  return reader.getRowsJson()[0]?.[0]
}
