/**
 * The deterministic raw-data generator: builds every file of docs/raw-data.md inside DuckDB (hash-based randomness,
 * see sql/macros.sql), writes them as zstd Parquet into a temporary folder next to `outDir`, adds `_truth.json`
 * (the planted structure, for test fixtures) and renames the folder into place, so a half-written raw folder never
 * exists. Same seed + same end date ⇒ the same rows.
 *
 * @example const { counts } = await generateRaw({ scale: 'tiny', seed: 42, outDir: '/tmp/raw', endDate: '2026-11-22' })
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { DuckDBConnection } from '@duckdb/node-api'
import { openPipelineDb, setVariables, sqlString, type SqlVariable } from '../../pipeline/duckdb.ts'
import { log, progress } from '../../pipeline/log.ts'
import {
  FOLLOWER_COUNT_DAYS, FOLLOW_ZIPF, SCALES, SCAN_WINDOW_DAYS, TWEET_DAYS, type Scale, type ScaleName,
} from './scales.ts'
import { writeTruth } from './truth.ts'
import { attackAccomplices, attackVariables } from './attacks.ts'

export interface GenerateOptions {
  scale: ScaleName
  seed: number
  outDir: string
  /** YYYY-MM-DD: the last day of scans and tweets */
  endDate: string
}

const SQL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sql')
/** models, in dependency order: each creates tables the next ones read */
const MODELS = ['macros.sql', 'entities.sql', 'taxonomy.sql', 'accounts.sql', 'follow_graph.sql']
/** raw files of docs/raw-data.md, each written from `sql/raw/<name>.sql` */
const RAW_FILES = [
  'categories', 'tag_categories', 'tags', 'accounts', 'previous_usernames', 'friends', 'account_categories',
  'account_tags', 'follow_scans', 'follower_counts', 'tweets',
]

export async function generateRaw(opts: GenerateOptions): Promise<{ outDir: string; counts: Record<string, number> }> {
  const scale = SCALES[opts.scale]
  if (!scale) throw new Error(`unknown scale ${opts.scale} (tiny, demo or large)`)
  if (!Number.isSafeInteger(opts.seed) || opts.seed < 0) {
    throw new Error(`seed must be a non-negative integer, got ${opts.seed}`)
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(opts.endDate) || Number.isNaN(Date.parse(opts.endDate))) {
    throw new Error(`end date must be YYYY-MM-DD, got ${opts.endDate}`)
  }
  const outDir = path.resolve(opts.outDir)
  fs.mkdirSync(path.dirname(outDir), { recursive: true })
  const tmpDir = fs.mkdtempSync(`${outDir}.tmp-`)
  const started = Date.now()
  log.info('generate.start', { scale: opts.scale, seed: opts.seed, end_date: opts.endDate, out: outDir })

  const counts: Record<string, number> = {}
  const db = await openPipelineDb()
  try {
    await setVariables(db.conn, sqlVariables(scale, opts))
    const bar = progress('generate', MODELS.length + RAW_FILES.length)
    for (const model of MODELS) {
      const t0 = Date.now()
      await db.conn.run(readSql(model))
      log.debug('generate.model', { model, ms: Date.now() - t0 })
      bar.tick()
    }
    for (const name of RAW_FILES) {
      const t0 = Date.now()
      counts[name] = await copyToParquet(db.conn, readSql(`raw/${name}.sql`), path.join(tmpDir, `${name}.parquet`))
      log.info('generate.file', { file: `${name}.parquet`, rows: counts[name], ms: Date.now() - t0 })
      bar.tick()
    }
    const meta = { seed: opts.seed, scale: opts.scale, endDate: opts.endDate }
    await writeTruth(db.conn, path.join(tmpDir, '_truth.json'), meta)
    bar.done({ rows: Object.values(counts).reduce((a, b) => a + b, 0) })
  } catch (error) {
    fs.rmSync(tmpDir, { recursive: true, force: true })
    throw error
  } finally {
    db.close()
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
  fs.renameSync(from, to)
  fs.rmSync(old, { recursive: true, force: true })
}

/** Everything the SQL files read with getvariable(): sizes, rank ranges of the entity layout, id permutation. */
function sqlVariables(scale: Scale, opts: GenerateOptions): Record<string, SqlVariable> {
  const special =
    scale.gems + scale.lonelySmall + scale.ringSize + scale.botFarms * (1 + scale.botsPerFarm) + scale.friendOverlapZero
    + attackAccomplices(scale)
  const known = scale.accounts + scale.friendOnly
  const ids = known + scale.unknownIds
  const oldIds = Math.floor(ids * 0.12)
  return {
    seed: opts.seed,
    end_date: { date: opts.endDate },
    scan_window: SCAN_WINDOW_DAYS,
    count_days: FOLLOWER_COUNT_DAYS,
    tweet_days: TWEET_DAYS,
    follow_zipf: FOLLOW_ZIPF,
    out_degree: scale.outDegree,
    n_tweets: scale.tweets,
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
