/**
 * The nightly build: the state of the day before + the day's raw folder → an audited, atomically published snapshot
 * and the state of the day (docs/pipeline.md, docs/snapshot.md).
 *
 * Order: lock → remove what killed builds left → attach the state, settle a day left unpublished → plan (a night on
 * the day before's state, with missed raw days replayed first, or a fold of every raw day from scratch) → validate
 * the raw folders → staging → fold the day into the follow runs → (backfill: score earlier dates) → score →
 * intermediate → marts → audits → Parquet, serving columns and manifest in a temp folder → commit the state's day
 * (unpublished) → rename → mark published, swap current → keep the last N → prune folded lookup files (and, when
 * asked, ingested raw day folders).
 *
 * @example await buildSnapshot({ rawDir: 'raw', snapshotsDir: 'snapshots', date: '2026-11-22' })
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { log } from '../log/logger.ts'
import { progress } from '../log/progress.ts'
import { AuditError } from './audit-error.ts'
import { settleAll } from './fan-out.ts'
import { writeFileNamed } from './file-write.ts'
import { historyBasis, runHistoryModels, writeHistoryParts } from './history-parts.ts'
import { writeServingColumns } from './serving-columns.ts'
import { copyVariables, openPipelineDb, queryRows, runSqlFile, setVariables, sqlString, SQL_DIR, stepRunner, type PipelineDb } from './duckdb.ts'
import {
  AUDITS, FOLD_FROM_SCRATCH, FOLD_NIGHT, FOLDED, INTERMEDIATE, KEPT_AFTER_MARTS, MARTS, SCORE_INPUTS, STAGING,
} from './models.ts'
import { assertRawUnchanged, type RawFileInfo } from './validate-raw.ts'
import { rawLayout, type RawLayout } from './raw-days.ts'
import { inputsFor, pruneRawDays, setRawViews, validateAll, type Inputs } from './raw-inputs.ts'
import { addDays, gapDays, planBuild, type Plan } from './plan.ts'
import { runScore, SCORE_PARAMS, type StepRunner } from './score.ts'
import {
  attachState, commitDay, defaultStateDir, foldedLookupFiles, foldedRawDays, lookupSource, markPublished,
  guardFoldFromScratch, pendingReplayDays, recoverUnpublished, seedRawDays, setRankCutoff, settleLateRawDays, stateDays,
  unpublishedReplaysFrom,
} from './state.ts'
import {
  acquireBuildLock, assertCurrentIsLink, currentDir, markFolderPublished, pruneSnapshots, removeAbandoned, swapCurrent, writeMarts, type Manifest,
} from './publish.ts'

export interface BuildOptions {
  /** the raw folder: day folders `YYYY-MM-DD/` (docs/raw-data.md), or the single-folder layout (imported as history) */
  rawDir: string
  snapshotsDir: string
  /** build date YYYY-MM-DD: the snapshot describes the state at the end of this UTC day */
  date: string
  /** the pipeline state folder (default `<snapshotsDir>/state`) */
  stateDir?: string
  /** published snapshots to keep (default 7) */
  keep?: number
  /** also score the N previous dates from the state as of each date (score history for a fresh install) */
  backfillDays?: number
  /** fold every raw day up to `date` from scratch instead of continuing from the state of the day before */
  rebuild?: boolean
  /** with `rebuild`, or a rerun of an earlier day: go ahead although days the state folded (from that day on) have
   * lost their raw folders (their history is dropped) */
  discardMissing?: boolean
  /** after publishing, delete the raw day folders before `date` that the state has folded (the newest folder on or
   * before `date` is kept for its reference tables) */
  pruneRaw?: boolean
  /** folder of the server's lookup logs (`<date>.ndjson`) for top_researched; complete days are folded and deleted */
  lookupsDir?: string
}

export interface BuildResult {
  snapshotId: string
  dir: string
  manifest: Manifest
  /** what failed after the snapshot was published (marking the state, retention): logged, the snapshot is served */
  warnings: string[]
}

const STEPS = STAGING.length + FOLDED.length + SCORE_INPUTS.length + 4 + INTERMEDIATE.length + MARTS.length + AUDITS.length

type Bar = ReturnType<typeof progress>

/** Run every audit; the first one that returns rows aborts with an AuditError. */
export async function runAudits(conn: DuckDBConnection, bar?: Bar): Promise<void> {
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

/** Fold the raw input of `date` (validated) and the lookup files `lookups` into the state's models, up to the score. */
async function foldDay(conn: DuckDBConnection, inputs: Inputs, date: string, lookups: string[], runStep: StepRunner): Promise<void> {
  await prepareDay(conn, inputs, date)
  const none = '(select null::timestamptz as "at", null::ubigint as platform_id limit 0)'
  await conn.run(`create or replace view raw_lookups as select "at", platform_id from ${lookups.length ? lookupSource(`[${lookups.map(sqlString).join(', ')}]`) : none}`)
  for (const model of STAGING) await runStep('staging', model)
  await runStep('intermediate', inputs.mode === 'import' ? FOLD_FROM_SCRATCH : FOLD_NIGHT, 'int_runs_opened')
  for (const model of FOLDED) await runStep('intermediate', model)
}

/** Score `date` and keep its scores for the state (`int_score_rows`). */
async function scoreDate(conn: DuckDBConnection, date: string, runStep: StepRunner): Promise<void> {
  await setVariables(conn, { build_date: { date } })
  await runScore(conn, runStep)
  await conn.run(`insert into int_score_rows select DATE '${date}', platform_id, platform_score, rank from int_scores`)
}

async function prepareDay(conn: DuckDBConnection, inputs: Inputs, date: string): Promise<void> {
  await setVariables(conn, {
    raw_dir: inputs.referenceDir,
    build_date: { date },
    state_date: { date },
    ingest_from: { date: inputs.mode === 'import' ? '0001-01-01' : date },
  })
  await conn.run(`set variable state_rebuild = ${inputs.mode === 'import'}`)
  await setRawViews(conn, inputs.folders.map((f) => f.dir))
  await runSqlFile(conn, 'state/state_views.sql')
  await conn.run(`create or replace table int_score_rows (score_date date, platform_id ubigint, platform_score double, rank integer)`)
}

/** A raw day missed by earlier builds: folded into the state and scored, as its night would have (no snapshot). */
async function replayDay(db: PipelineDb, layout: RawLayout & { kind: 'daily' }, day: string): Promise<RawFileInfo[]> {
  const started = Date.now()
  const inputs = inputsFor(layout, day, 'night')
  const infos = await validateAll(db, inputs.checked)
  const { conn } = db
  const runStep = stepRunner(conn)
  await foldDay(conn, inputs, day, [], runStep)
  await scoreDate(conn, day, runStep)
  await commitDay(conn, {
    date: day, kind: 'replay', snapshotId: null, raw: layout.root, rebuild: false, scoreDates: [day], foldLookups: [],
    rawDays: inputs.folders.map((f) => f.day!),
  })
  log.info('build.replayed', { day, ms: Date.now() - started })
  return infos
}

/** Lookup files of `dir`: those to read (not folded yet) and, among them, the complete days to fold. */
function lookupFiles(dir: string | undefined, folded: Set<string>) {
  if (!dir || !fs.existsSync(dir)) return { read: [], fold: [], done: [] }
  const today = new Date().toISOString().slice(0, 10)
  const names = fs.readdirSync(dir).filter((f) => f.endsWith('.ndjson')).sort()
  const complete = (name: string) => /^\d{4}-\d{2}-\d{2}\.ndjson$/.test(name) && name.slice(0, 10) < today
  const read = names.filter((n) => !folded.has(n)).map((n) => path.resolve(dir, n))
  return {
    read,
    fold: read.filter((f) => complete(path.basename(f))),
    done: names.filter((n) => folded.has(n)).map((n) => path.resolve(dir, n)),
  }
}

interface Modeled {
  rawFiles: RawFileInfo[]
  scoreDates: string[]
  foldLookups: string[]
  /** lookup files folded by an earlier build that did not get to delete them */
  foldedBefore: string[]
  replayed: string[]
  mode: Plan['mode']
  /** the raw day folders this build folds for its own date (the import: all up to it) */
  rawDays: string[]
  /** the day the state was rewound to, to fold folders delivered after their day was built as a gap */
  rewoundTo: string | null
  /** late folders the state cannot take (a folded day after them has lost its folder, or no built day comes before) */
  unfoldedRawDays: string[]
  /** the first day replayed since `current` was published (unpublishedReplaysFrom) */
  unpublishedFrom: string | null
  /** what the raw input lacked or held besides day folders (gap days, late folders kept, other entries) */
  notices: string[]
}

/**
 * Settle the state, replay missed raw days, validate the build date's raw input and run every model (staging → fold
 * → backfill → score → intermediate → marts) in `db`.
 */
export async function runModels(db: PipelineDb, opts: BuildOptions, stateDir: string, bar?: Bar): Promise<Modeled> {
  const { conn } = db
  const snapshotsDir = path.resolve(opts.snapshotsDir)
  await attachState(conn, stateDir)
  await recoverUnpublished(conn, snapshotsDir)
  await setRankCutoff(conn, opts.date)
  const layout = rawLayout(opts.rawDir)
  if (layout.kind === 'daily') await seedRawDays(conn, layout.days)
  // what an operator should know of the raw input, besides the log lines: last-build.json's warnings
  const notices: string[] = []
  if (layout.kind === 'daily' && layout.ignored.length > 0) {
    log.warn('build.raw_ignored', { raw: layout.root, ignored: layout.ignored, meaning: 'not day folders (YYYY-MM-DD/): not read' })
    notices.push(`raw entries not read (not day folders YYYY-MM-DD/): ${layout.ignored.join(', ')}`)
  }
  await guardFoldFromScratch(conn, layout, { ...opts, snapshotsDir, stateDir })
  const validateDays = async (days: string[]) => {
    if (layout.kind === 'daily') for (const day of days) await validateAll(db, inputsFor(layout, day, 'night').folders)
  }
  const late =
    layout.kind === 'daily' && !opts.rebuild
      ? await settleLateRawDays(conn, layout, opts.date, validateDays)
      : { rewoundTo: null, unfolded: [] }
  const days = await stateDays(conn)
  const plan = planBuild(layout, days, opts.date, opts.rebuild, await pendingReplayDays(conn))
  if (layout.kind === 'daily' && plan.mode === 'night') {
    const gaps = gapDays(layout, days, opts.date)
    if (gaps.length > 0) {
      log.warn('build.gap', { days: gaps, raw: layout.root, meaning: 'no raw day folder: accounts not scanned keep their state' })
      notices.push(`no raw day folder for ${gaps.join(', ')}: built as gaps (the accounts they would have scanned keep their state)`)
    }
  }
  const rawFiles: RawFileInfo[] = []
  if (layout.kind === 'daily') for (const day of plan.replay) rawFiles.push(...(await replayDay(db, layout, day)))

  const inputs = inputsFor(layout, opts.date, plan.mode)
  rawFiles.push(...(await validateAll(db, inputs.checked)))
  const lookups = lookupFiles(opts.lookupsDir, await foldedLookupFiles(conn))
  const runStep = stepRunner(conn, bar)
  await foldDay(conn, inputs, opts.date, lookups.read, runStep)

  const scoreDates: string[] = []
  for (let back = opts.backfillDays ?? 0; back >= 0; back--) {
    const date = addDays(opts.date, -back)
    const started = Date.now()
    await scoreDate(conn, date, stepRunner(conn, back === 0 ? bar : undefined))
    scoreDates.push(date)
    if (back > 0) log.info('build.backfill', { date, ms: Date.now() - started })
  }
  bar?.tick()
  for (const model of INTERMEDIATE) await runStep('intermediate', model)
  for (const model of MARTS) await runStep('marts', model)
  await dropIntermediates(conn)
  return {
    rawFiles, scoreDates, foldLookups: lookups.fold, foldedBefore: lookups.done, replayed: plan.replay, mode: plan.mode,
    rawDays: inputs.folders.flatMap((f) => (f.day ? [f.day] : [])), rewoundTo: late.rewoundTo, unfoldedRawDays: late.unfolded,
    notices: late.unfolded.length > 0 ? [...notices, `late day folders kept, not folded: ${late.unfolded.join(', ')} (docs/pipeline.md)`] : notices,
    unpublishedFrom: await unpublishedReplaysFrom(conn),
  }
}

/**
 * The first day whose rows may differ from those `current` was built from (null: every day, an import): the days the
 * build folded, replayed, rewound to or scored, its date, and the days replayed by a build that stopped before
 * publishing.
 */
function changedFrom(modeled: Modeled, date: string): string | null {
  if (modeled.mode === 'import') return null
  const since = [modeled.rewoundTo, modeled.unpublishedFrom].filter((day) => day !== null)
  return [date, ...modeled.rawDays, ...modeled.replayed, ...modeled.scoreDates, ...since].sort()[0]
}

/** Free the memory of intermediate tables nothing reads any more before auditing and writing Parquet. */
async function dropIntermediates(conn: DuckDBConnection): Promise<void> {
  const tables = await queryRows(
    conn,
    `select table_name from duckdb_tables() where database_name = current_database() and starts_with(table_name, 'int_')`,
  )
  for (const { table_name } of tables) {
    if (!KEPT_AFTER_MARTS.includes(String(table_name))) await conn.run(`drop table ${table_name}`)
  }
}

export async function buildSnapshot(opts: BuildOptions): Promise<BuildResult> {
  const started = new Date()
  const snapshotId = newSnapshotId(opts.date, started)
  const snapshotsDir = path.resolve(opts.snapshotsDir)
  const stateDir = path.resolve(opts.stateDir ?? defaultStateDir(snapshotsDir))
  log.info('build.start', { snapshot_id: snapshotId, raw: path.resolve(opts.rawDir), snapshots: snapshotsDir, state: stateDir, date: opts.date })
  fs.mkdirSync(snapshotsDir, { recursive: true })
  const release = acquireBuildLock(snapshotsDir)
  try {
    assertCurrentIsLink(snapshotsDir)
    removeAbandoned(snapshotsDir)
    const bar = progress('build', STEPS)
    const dir = path.join(snapshotsDir, snapshotId)
    // spills on the snapshots' disk (not the OS temp folder, often a tmpfs in memory), removed with a killed build's
    // other `.tmp-*` folders by the next build
    const db = await openPipelineDb(path.join(snapshotsDir, `.tmp-spill-${snapshotId}`))
    // published: what follows can fail without unpublishing it (a build that finds its day unmarked marks it)
    const warnings: string[] = []
    const afterPublish = async <T>(step: string, work: () => T | Promise<T>, fallback: T): Promise<T> => {
      try {
        return await work()
      } catch (error) {
        const message = `${step}: ${error instanceof Error ? error.message : String(error)}`
        log.error('build.after_publish_failed', { snapshot_id: snapshotId, step, error: message })
        warnings.push(message)
        return fallback
      }
    }
    let written: Awaited<ReturnType<typeof writeSnapshot>>
    // the raw day folders the state has folded (read for pruning; null: not asked, or unreadable)
    let folded: Set<string> | null = null
    try {
      written = await writeSnapshot(db, opts, stateDir, dir, started, bar).catch((error) => {
        bar.fail()
        throw error
      })
      warnings.push(...written.notices)
      markFolderPublished(snapshotsDir, snapshotId)
      swapCurrent(snapshotsDir, snapshotId)
      await afterPublish('mark_published', () => markPublished(db.conn, snapshotId), undefined)
      if (opts.pruneRaw) folded = await afterPublish('read_folded_days', () => foldedRawDays(db.conn), null)
    } finally {
      // the build's memory is released before anything loads the snapshot
      db.close()
    }
    const { manifest, foldedLookups } = written
    const removed = await afterPublish('prune_snapshots', () => pruneSnapshots(snapshotsDir, opts.keep ?? 7), [] as string[])
    await afterPublish('delete_folded_lookups', () => foldedLookups.forEach((file) => fs.rmSync(file, { force: true })), undefined)
    const prunedRaw = folded ? await afterPublish('prune_raw', () => pruneRawDays(opts.rawDir, opts.date, folded), [] as string[]) : []
    bar.done({ snapshot_id: snapshotId })
    log.info('build.published', { snapshot_id: snapshotId, dir, removed, pruned_raw: prunedRaw, ms: Date.now() - started.getTime() })
    return { snapshotId, dir, manifest, warnings }
  } finally {
    release()
  }
}

/**
 * Run the models and audits on `db`, write the snapshot's files, complete, to `dir` (through a temp folder and a
 * rename) and commit the state's day (unpublished).
 */
async function writeSnapshot(db: PipelineDb, opts: BuildOptions, stateDir: string, dir: string, started: Date, bar: Bar) {
  const snapshotsDir = path.dirname(dir)
  const snapshotId = path.basename(dir)
  const tempDir = path.join(snapshotsDir, `.tmp-${snapshotId}`)
  try {
    const { conn } = db
    const modeled = await runModels(db, opts, stateDir, bar)
    const rawRoot = path.resolve(opts.rawDir)
    try {
      await runAudits(conn, bar)
    } finally {
      // a raw folder replaced mid-build explains a failed audit better than the audit does
      assertRawUnchanged(rawRoot, modeled.rawFiles)
    }

    fs.mkdirSync(tempDir)
    // the Parquet files, the serving columns and the history parts all read the marts: written side by side
    const historyConn = await db.connect()
    const basis = historyBasis(currentDir(snapshotsDir), opts.date, changedFrom(modeled, opts.date))
    const [files, , history] = await settleAll([
      writeMarts(() => db.connect(), tempDir),
      writeServingColumns(conn, tempDir),
      copyVariables(conn, historyConn)
        .then(() => runHistoryModels(historyConn, basis))
        .then(() => writeHistoryParts(historyConn, tempDir, opts.date, basis))
        .finally(() => historyConn.closeSync()),
    ])
    const manifest: Manifest = {
      snapshot_id: snapshotId,
      build_date: opts.date,
      built_at: started.toISOString(),
      raw_source: rawRoot,
      raw_files: modeled.rawFiles.map(({ file, rows, sha256 }) => ({ file, rows, sha256 })),
      files: [...files, ...history.files],
      score_params: SCORE_PARAMS,
      parts: history.parts,
      state: {
        dir: stateDir,
        mode: modeled.mode,
        replayed_days: modeled.replayed,
        rewound_to: modeled.rewoundTo,
        unfolded_raw_days: modeled.unfoldedRawDays,
      },
    }
    writeFileNamed(path.join(tempDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
    const committed = Date.now()
    await setVariables(conn, { build_date: { date: opts.date } })
    await commitDay(conn, {
      date: opts.date,
      kind: modeled.mode === 'import' ? 'import' : 'night',
      snapshotId,
      raw: rawRoot,
      rebuild: modeled.mode === 'import',
      scoreDates: modeled.scoreDates,
      foldLookups: modeled.foldLookups,
      rawDays: modeled.rawDays,
    })
    log.info('build.step', { step: 'commit_state', layer: 'publish', rows: 0, ms: Date.now() - committed })
    fs.renameSync(tempDir, dir)
    return { manifest, foldedLookups: [...modeled.foldLookups, ...modeled.foldedBefore], notices: modeled.notices }
  } finally {
    fs.rmSync(tempDir, { recursive: true, force: true })
  }
}
