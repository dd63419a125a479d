/**
 * The deterministic raw-data generator, a model of the crawler: builds every file of docs/raw-data.md inside DuckDB
 * (hash-based randomness, see sql/macros.sql) and writes one folder per day, `<outDir>/YYYY-MM-DD/`, for the `days`
 * days ending on the end date: that day's follow scans, follower counts and tweets, and the reference tables (the
 * same rows every day, hard-linked). Everything goes into a temporary folder next to `outDir` with `_truth.json`
 * (the planted structure, for test fixtures) and is renamed into place, so a half-written raw folder never exists.
 * Same seed + same end date + same days ⇒ the same rows.
 *
 * @example const { counts } = await generateRaw({ scale: 'tiny', seed: 42, outDir: '/tmp/raw', endDate: '2026-11-22' })
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { DuckDBConnection } from '@duckdb/node-api'
import { addDays } from '../../pipeline/plan.ts'
import { isCalendarDay } from '../../pipeline/raw-days.ts'
import { checkPipelineTuning, openPipelineDb, setVariables, sqlString, type SqlVariable } from '../../pipeline/duckdb.ts'
import { log } from '../../log/logger.ts'
import { progress } from '../../log/progress.ts'
import { DEFAULT_DAYS, FOLLOW_ZIPF, MAX_DAYS, SCALES, TWEETS_PER_DAY_DIVISOR, type Scale, type ScaleName } from './scales.ts'
import { writeTruth } from './truth.ts'
import { attackAccomplices, attackVariables } from './attacks.ts'

export interface GenerateOptions {
  scale: ScaleName
  seed: number
  outDir: string
  /** YYYY-MM-DD: the last day of scans and tweets */
  endDate: string
  /** number of dated day folders, ending with the end date (default 60, at most 365) */
  days?: number
}

const SQL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sql')
/** models, in dependency order: each creates tables the next ones read */
const MODELS = ['macros.sql', 'entities.sql', 'taxonomy.sql', 'accounts.sql', 'follow_graph.sql', 'follower_totals.sql']
/** reference tables of docs/raw-data.md, each written once from `sql/raw/<name>.sql` and linked into every day */
const REFERENCE_FILES = [
  'categories', 'tag_categories', 'tags', 'accounts', 'previous_usernames', 'friends', 'account_categories',
  'account_tags',
]
/**
 * files with one slice per day: `sql/raw/<name>.sql` (as table gen_<name>) plus the column that holds the row's
 * day, and the query of a day folder's rows (`sql/raw/<name>_of_day.sql`, over gen_<name> and gen_date) when it is
 * not simply the rows of that day
 */
const DAILY_FILES: { name: string; day: string; ofDay?: string }[] = [
  { name: 'follower_counts', day: 'scan_date' },
  { name: 'tweets', day: 'cast(cast(created_at as timestamptz) as date)', ofDay: 'raw/tweets_of_day.sql' },
]

export async function generateRaw(opts: GenerateOptions): Promise<{ outDir: string; counts: Record<string, number> }> {
  if (!Object.hasOwn(SCALES, opts.scale)) throw new Error(`unknown scale ${opts.scale} (tiny, demo or large)`)
  const scale = SCALES[opts.scale]
  if (!Number.isSafeInteger(opts.seed) || opts.seed < 0) {
    throw new Error(`seed must be a non-negative integer, got ${opts.seed}`)
  }
  if (!isCalendarDay(opts.endDate)) throw new Error(`end date must be a real date YYYY-MM-DD, got ${opts.endDate}`)
  const days = opts.days ?? DEFAULT_DAYS
  if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS) throw new Error(`days must be 1..${MAX_DAYS}, got ${days}`)
  const outDir = path.resolve(opts.outDir)
  // DuckDB's settings first (an error names PIPELINE_MEMORY_LIMIT and PIPELINE_THREADS), before any folder is made
  await checkPipelineTuning()
  fs.mkdirSync(path.dirname(outDir), { recursive: true })
  const tmpDir = fs.mkdtempSync(`${outDir}.tmp-`)
  const started = Date.now()
  log.info('generate.start', { scale: opts.scale, seed: opts.seed, end_date: opts.endDate, days, out: outDir })

  const counts: Record<string, number> = {}
  const bar = progress('generate', MODELS.length + REFERENCE_FILES.length + days)
  let db: Awaited<ReturnType<typeof openPipelineDb>> | undefined
  try {
    db = await openPipelineDb()
    await setVariables(db.conn, sqlVariables(scale, opts, days))
    for (const model of MODELS) {
      const t0 = Date.now()
      await db.conn.run(readSql(model))
      log.debug('generate.model', { model, ms: Date.now() - t0 })
      bar.tick()
    }
    const dayDirs = Array.from({ length: days }, (_, k) => path.join(tmpDir, addDays(opts.endDate, k - days + 1)))
    for (const dir of dayDirs) fs.mkdirSync(dir)
    const last = dayDirs.at(-1)!
    for (const name of REFERENCE_FILES) {
      const t0 = Date.now()
      counts[name] = await copyToParquet(db.conn, readSql(`raw/${name}.sql`), path.join(last, `${name}.parquet`))
      for (const dir of dayDirs.slice(0, -1)) fs.linkSync(path.join(last, `${name}.parquet`), path.join(dir, `${name}.parquet`))
      log.info('generate.file', { file: `${name}.parquet`, rows: counts[name], ms: Date.now() - t0 })
      bar.tick()
    }
    for (const { name, day } of DAILY_FILES) {
      await db.conn.run(`create table gen_${name} as select *, ${day} as gen_day from (${readSql(`raw/${name}.sql`)})`)
    }
    counts.follow_scans = 0
    for (const name of ['follower_counts', 'tweets']) counts[name] = 0
    for (const [k, dir] of dayDirs.entries()) {
      const t0 = Date.now()
      await setVariables(db.conn, { gen_day: k, gen_date: { date: path.basename(dir) } })
      counts.follow_scans += await copyToParquet(db.conn, readSql('raw/follow_scans.sql'), path.join(dir, 'follow_scans.parquet'))
      for (const { name, ofDay } of DAILY_FILES) {
        const query = ofDay ? readSql(ofDay) : `select * exclude (gen_day) from gen_${name} where gen_day = getvariable('gen_date')`
        counts[name] += await copyToParquet(db.conn, query, path.join(dir, `${name}.parquet`))
      }
      log.debug('generate.day', { day: path.basename(dir), ms: Date.now() - t0 })
      bar.tick()
    }
    const meta = { seed: opts.seed, scale: opts.scale, endDate: opts.endDate }
    await writeTruth(db.conn, path.join(tmpDir, '_truth.json'), meta)
    bar.done({ rows: Object.values(counts).reduce((a, b) => a + b, 0) })
  } catch (error) {
    bar.fail()
    fs.rmSync(tmpDir, { recursive: true, force: true })
    throw error
  } finally {
    db?.close()
  }
  replaceDir(tmpDir, outDir)
  log.info('generate.done', { out: outDir, ms: Date.now() - started })
  return { outDir, counts }
}

function readSql(file: string): string {
  return fs.readFileSync(path.join(SQL_DIR, file), 'utf8')
}

async function copyToParquet(conn: DuckDBConnection, query: string, file: string): Promise<number> {
  const result = await conn.run(`copy (${query}) to ${sqlString(file)} (format parquet, compression zstd)`)
  return result.rowsChanged
}

/** Move a finished folder to its final name; a previous folder there is replaced, never mixed with the new one. */
function replaceDir(from: string, to: string): void {
  if (!fs.existsSync(to)) return fs.renameSync(from, to)
  const old = `${to}.old-${process.pid}-${Date.now()}`
  fs.renameSync(to, old)
  try {
    fs.renameSync(from, to)
  } catch (error) {
    fs.renameSync(old, to)
    throw error
  }
  fs.rmSync(old, { recursive: true, force: true })
}

/** Everything the SQL files read with getvariable(): sizes, rank ranges of the entity layout, id permutation. */
function sqlVariables(scale: Scale, opts: GenerateOptions, days: number): Record<string, SqlVariable> {
  const special =
    scale.gems + scale.lonelySmall + scale.ringSize + scale.botFarms * (1 + scale.botsPerFarm) + scale.friendOverlapZero
    + attackAccomplices(scale)
  const known = scale.accounts + scale.friendOnly
  const ids = known + scale.unknownIds
  const oldIds = Math.floor(ids * 0.12)
  return {
    seed: opts.seed,
    end_date: { date: opts.endDate },
    // follow-scan day numbers run from 0 (the baseline, the first day) to scan_window (the end date)
    scan_window: days - 1,
    count_days: days,
    tweet_days: days,
    follow_zipf: FOLLOW_ZIPF,
    out_degree: scale.outDegree,
    n_tweets: Math.round((scale.tweets * days) / TWEETS_PER_DAY_DIVISOR),
    n_generic: known - special,
    n_known: known,
    n_ids: ids,
    n_unknown: scale.unknownIds,
    n_friend_only: scale.friendOnly,
    // the overlap_zero structure accounts are not monitored, all other structure accounts are
    n_generic_monitored: scale.monitored - (special - scale.friendOverlapZero),
    n_top: scale.topAccounts,
    n_gems: scale.gems,
    n_lonely: scale.lonelySmall,
    n_ring: scale.ringSize,
    n_farms: scale.botFarms,
    n_bots_per_farm: scale.botsPerFarm,
    n_overlap_zero: scale.friendOverlapZero,
    n_bucket_followers: scale.bucketFollowers,
    ...attackVariables(scale),
    n_curated: 30,
    n_old_ids: oldIds,
    id_slot: Math.floor(4e17 / (ids - oldIds)),
    // r -> creation index is r * perm_a + perm_b mod n_ids; a prime above n_ids / 2 is coprime with n_ids
    perm_a: primeAtLeast(Math.floor(ids * 0.618)),
    perm_b: Number((BigInt(opts.seed) * 2654435761n + 12345n) % BigInt(ids)),
  }
}

function primeAtLeast(n: number): number {
  for (let p = Math.max(n, 2); ; p++) {
    let prime = true
    for (let d = 2; d * d <= p; d++) if (p % d === 0) { prime = false; break }
    if (prime) return p
  }
}
