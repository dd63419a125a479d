/**
 * The nightly build: raw Parquet → audited, atomically published snapshot (docs/snapshot.md).
 *
 * Order: validate raw → (backfill: score each earlier date, write its history) → staging → score → intermediate
 * → marts → audits → score history of the build date → Parquet, serving columns and manifest in a temp folder →
 * rename → swap current → keep the last N.
 *
 * @example await buildSnapshot({ rawDir: 'raw', snapshotsDir: 'snapshots', date: '2026-11-22' })
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { log, progress } from './log.ts'
import { writeServingColumns } from './serving-columns.ts'
import { openPipelineDb, queryRows, queryValue, runSqlFile, setVariables, SQL_DIR } from './duckdb.ts'
import { KEPT_AFTER_MARTS, AUDITS, INTERMEDIATE, MARTS, SCORE_INPUTS, STAGING } from './models.ts'
import { assertRawUnchanged, validateRaw, type RawFileInfo } from './validate-raw.ts'
import { runScore, SCORE_PARAMS } from './score.ts'
import { addDays, loadScoreHistory, writeScoreHistory } from './history.ts'
import { loadLookups } from './lookups.ts'
import { pruneSnapshots, swapCurrent, writeMarts, type Manifest } from './publish.ts'

export interface BuildOptions {
  rawDir: string
  snapshotsDir: string
  /** build date YYYY-MM-DD: the snapshot describes the state at the end of this UTC day */
  date: string
  /** published snapshots to keep (default 7) */
  keep?: number
  /** also score the N previous dates from the raw scans as of each date (score history for a fresh install) */
  backfillDays?: number
  /** folder of the server's lookup logs (`<date>.ndjson`) for top_researched; none when absent */
  lookupsDir?: string
}

export interface BuildResult {
  snapshotId: string
  dir: string
  manifest: Manifest
}

/** Raised when an audit returns rows: names the audit and carries a sample of the offending rows. */
export class AuditError extends Error {
  constructor(
    readonly audit: string,
    readonly sample: Record<string, unknown>[],
  ) {
    super(`audit ${audit} failed: ${JSON.stringify(sample)}`)
    this.name = 'AuditError'
  }
}

const STEPS = STAGING.length + SCORE_INPUTS.length + 2 + INTERMEDIATE.length + MARTS.length + AUDITS.length

function stepRunner(conn: DuckDBConnection, bar?: ReturnType<typeof progress>) {
  return async (layer: string, model: string) => {
    const started = Date.now()
    try {
      await runSqlFile(conn, `${layer}/${model}.sql`)
    } catch (error) {
      throw new Error(`model ${layer}/${model} failed: ${error instanceof Error ? error.message : String(error)}`)
    }
    const rows = Number(await queryValue(conn, `select count(*) from ${model}`))
    log.info('build.step', { step: model, layer, rows, ms: Date.now() - started })
    bar?.tick()
  }
}

/** Run every audit; the first one that returns rows aborts with an AuditError. */
export async function runAudits(conn: DuckDBConnection, bar?: ReturnType<typeof progress>): Promise<void> {
  for (const audit of AUDITS) {
    const started = Date.now()
    const sql = fs.readFileSync(path.join(SQL_DIR, 'audits', `${audit}.sql`), 'utf8')
    const sample = await queryRows(conn, `select * from (${sql.trim().replace(/;$/, '')}) limit 5`)
    if (sample.length > 0) {
      log.error('build.audit_failed', { audit, sample })
      throw new AuditError(audit, sample)
    }
    log.info('build.step', { step: audit, layer: 'audits', rows: 0, ms: Date.now() - started })
    bar?.tick()
  }
}

function newSnapshotId(date: string, builtAt: Date): string {
  const time = builtAt.toISOString().slice(11, 19).replaceAll(':', '')
  return `${date}_${time}-${crypto.randomBytes(3).toString('hex')}`
}

async function backfill(conn: DuckDBConnection, opts: BuildOptions): Promise<void> {
  const days = opts.backfillDays ?? 0
  const runStep = stepRunner(conn)
  for (let back = days; back >= 1; back--) {
    const date = addDays(opts.date, -back)
    const started = Date.now()
    await setVariables(conn, { build_date: { date } })
    await runScore(conn, runStep)
    await writeScoreHistory(conn, opts.snapshotsDir, date)
    log.info('build.backfill', { date, ms: Date.now() - started })
  }
}

/**
 * Validate the raw folder and run every model (staging → score → intermediate → marts) in `conn`, with the backfill
 * first when asked. Returns the raw files' row counts and checksums for the manifest.
 */
export async function runModels(
  conn: DuckDBConnection,
  opts: BuildOptions,
  bar?: ReturnType<typeof progress>,
): Promise<RawFileInfo[]> {
  const rawDir = path.resolve(opts.rawDir)
  const validated = Date.now()
  const rawFiles = await validateRaw(conn, rawDir)
  const rows = rawFiles.reduce((n, f) => n + f.rows, 0)
  log.info('build.step', { step: 'validate_raw', layer: 'raw', rows, ms: Date.now() - validated })
  await setVariables(conn, { raw_dir: rawDir, build_date: { date: opts.date } })
  const runStep = stepRunner(conn, bar)
  for (const model of STAGING) await runStep('staging', model)
  await backfill(conn, opts)
  await setVariables(conn, { build_date: { date: opts.date } })
  await loadScoreHistory(conn, path.resolve(opts.snapshotsDir), opts.date)
  await loadLookups(conn, opts.lookupsDir)
  await runScore(conn, runStep)
  bar?.tick()
  for (const model of INTERMEDIATE) await runStep('intermediate', model)
  for (const model of MARTS) await runStep('marts', model)
  await dropIntermediates(conn)
  return rawFiles
}

/** Free the memory of intermediate tables nothing reads any more before auditing and writing Parquet. */
async function dropIntermediates(conn: DuckDBConnection): Promise<void> {
  const tables = await queryRows(conn, `select table_name from duckdb_tables() where starts_with(table_name, 'int_')`)
  for (const { table_name } of tables) {
    if (!KEPT_AFTER_MARTS.includes(String(table_name))) await conn.run(`drop table ${table_name}`)
  }
}

export async function buildSnapshot(opts: BuildOptions): Promise<BuildResult> {
  const started = new Date()
  const snapshotId = newSnapshotId(opts.date, started)
  const snapshotsDir = path.resolve(opts.snapshotsDir)
  log.info('build.start', { snapshot_id: snapshotId, raw: path.resolve(opts.rawDir), snapshots: snapshotsDir, date: opts.date })
  fs.mkdirSync(snapshotsDir, { recursive: true })
  const bar = progress('build', STEPS)
  const dir = path.join(snapshotsDir, snapshotId)
  const manifest = await writeSnapshot(opts, dir, started, bar)
  swapCurrent(snapshotsDir, snapshotId)
  const removed = pruneSnapshots(snapshotsDir, opts.keep ?? 7)
  bar.done({ snapshot_id: snapshotId })
  log.info('build.published', { snapshot_id: snapshotId, dir, removed, ms: Date.now() - started.getTime() })
  return { snapshotId, dir, manifest }
}

/**
 * Run the models and audits and write the snapshot's files, complete, to `dir` (through a temp folder and a
 * rename). The pipeline's DuckDB is closed when this returns, so its memory is released before anything loads the
 * snapshot.
 */
async function writeSnapshot(opts: BuildOptions, dir: string, started: Date, bar: ReturnType<typeof progress>): Promise<Manifest> {
  const snapshotsDir = path.dirname(dir)
  const snapshotId = path.basename(dir)
  const db = await openPipelineDb()
  const tempDir = path.join(snapshotsDir, `.tmp-${snapshotId}`)
  try {
    const { conn } = db
    const rawFiles = await runModels(conn, opts, bar)
    try {
      await runAudits(conn, bar)
    } finally {
      // a raw folder replaced mid-build explains a failed audit better than the audit does
      assertRawUnchanged(path.resolve(opts.rawDir), rawFiles)
    }
    await writeScoreHistory(conn, snapshotsDir, opts.date)

    fs.mkdirSync(tempDir)
    const written = Date.now()
    const files = await writeMarts(conn, tempDir)
    const rows = files.reduce((n, f) => n + f.rows, 0)
    log.info('build.step', { step: 'write_parquet', layer: 'publish', rows, ms: Date.now() - written })
    await writeServingColumns(conn, tempDir)
    const manifest: Manifest = {
      snapshot_id: snapshotId,
      build_date: opts.date,
      built_at: started.toISOString(),
      raw_source: path.resolve(opts.rawDir),
      raw_files: rawFiles.map(({ file, rows, sha256 }) => ({ file, rows, sha256 })),
      files,
      score_params: SCORE_PARAMS,
    }
    fs.writeFileSync(path.join(tempDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
    fs.renameSync(tempDir, dir)
    return manifest
  } finally {
    fs.rmSync(tempDir, { recursive: true, force: true })
    db.close()
  }
}
