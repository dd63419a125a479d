/**
 * Hand-made raw folders for the pipeline tests: a dozen accounts and a few scans, small enough that every expected
 * snapshot row is computed by hand in test/pipeline.test.ts. Rows follow the column order of pipeline/raw-contract.ts.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { RAW_FILES } from '../pipeline/raw-contract.ts'
import { sqlString } from '../pipeline/duckdb.ts'
import { createSnapshotViews } from '../pipeline/snapshot-sql.ts'
import { generateRaw } from '../scripts/generate/index.ts'
import { rewriteRawFile } from '../scripts/generate/rewrite.ts'

export const BUILD_DATE = '2026-11-22'

/** Account number k → a platform id above 2^53 (decimal string). */
export const id = (k: number): string => (18000000000000000000n + BigInt(k)).toString()
/** Index of account k in accounts.parquet (ids sort like k; accounts 1..14 are all present). */
export const idx = (k: number): number => k - 1

const at = (date: string, k: number) => `${date} 06:${String(k).padStart(2, '0')}:00.123`
export const scan = (k: number, date: string, follows: number[]) => [date, at(date, k), id(k), follows.map(id)]

type Row = unknown[]
export type RawRows = Record<string, Row[]>

let scratch: Promise<DuckDBInstance> | undefined
let scratches = 0

/**
 * Run `work` on a connection of the tests' one in-memory DuckDB (UTC), in a database of its own that is dropped
 * after: calls side by side never see each other's views. One instance for all: each new one costs DuckDB's start-up,
 * and closing one hands its allocator's memory back to the OS, to be faulted in again by the next.
 */
async function inScratch<T>(work: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
  scratch ??= DuckDBInstance.create(':memory:').then(async (instance) => {
    await (await instance.connect()).run(`set global TimeZone = 'UTC'`)
    return instance
  })
  const conn = await (await scratch).connect()
  const db = `scratch_${++scratches}`
  try {
    await conn.run(`attach ':memory:' as ${db}; use ${db}`)
    return await work(conn)
  } finally {
    await conn.run(`use memory; detach ${db}`)
    conn.closeSync()
  }
}

// account_id, username, slug, name, description, profile_image, blue_verified, is_active, is_suspended,
// is_monitored, followers_count
export const account = (k: number, username: string, name: string | null, flags: { monitored?: boolean; active?: boolean; suspended?: boolean }, followers: number) =>
  [id(k), username, username.toLowerCase(), name, k % 2 ? `bio ${k}` : null, k % 3 ? `https://img/${k}.png` : null,
   k === 1, flags.active ?? true, flags.suspended ?? false, flags.monitored ?? true, followers]

/** The base fixture (see the account map in test/pipeline.test.ts). */
export function baseRaw(): RawRows {
  return {
    'accounts.parquet': [
      account(1, 'VcOne', 'VC One', {}, 4000),
      account(2, 'VcTwo', 'VC Two', {}, 3000),
      account(3, 'Founder', 'Founder', {}, 2500),
      account(4, 'Proj', 'Project', {}, 900),
      account(5, 'Infl', 'Influencer', {}, 600),
      account(6, 'Angel', 'Angel', {}, 500),
      account(7, 'SmallGem', 'Small Gem', { monitored: false }, 50),
      account(8, 'Banned', 'Banned VC', { suspended: true }, 100),
      account(9, 'Sleepy', 'Sleepy', { active: false }, 10),
      account(10, 'RingA', 'Ring A', {}, 20),
      account(11, 'RingB', 'Ring B', {}, 30),
      account(12, 'NoName', null, { monitored: false }, 5),
      account(14, 'Lonely', 'Lonely', { monitored: false }, 3),
    ],
    'previous_usernames.parquet': [
      [id(4), 'old_proj', '2026-06-01'],
      [id(4), 'older_proj', '2025-01-01'],
      [id(99), 'ghost', '2026-01-01'],
    ],
    'friends.parquet': [
      [id(13), 'Friendy', 'Friend Only', null, null, 77, 420.5],
      [id(4), 'proj_friend', 'Proj friend', null, null, 901, 300],
      [id(14), 'lonely_friend', 'Lonely friend', null, null, 9, 55.5],
    ],
    'categories.parquet': [
      [1, 'Venture Capitals'], [2, 'Founders'], [3, 'Projects'], [4, 'Exchanges'],
      [5, 'Auditors'], [6, 'Media'], [7, 'Influencers'], [8, 'Angels'],
    ],
    'tag_categories.parquet': [[1, 'Sector'], [2, 'Chain']],
    'tags.parquet': [[10, 'DeFi', 1], [11, 'NFT', 1], [20, 'Ethereum', 2]],
    'account_categories.parquet': [
      [id(1), 1], [id(2), 1], [id(2), 7], [id(3), 2], [id(4), 3], [id(5), 7], [id(6), 8], [id(8), 1],
    ],
    'account_tags.parquet': [[id(1), 10], [id(4), 20], [id(4), 10], [id(13), 11]],
    'follow_scans.parquet': [
      scan(1, '2026-11-10', [4, 5]), scan(1, '2026-11-16', [4, 5, 7]), scan(1, '2026-11-21', [4, 7, 13]),
      scan(2, '2026-11-10', [1, 4]), scan(2, '2026-11-20', [1, 4, 12]),
      scan(3, '2026-11-10', [1, 2, 4]), scan(3, '2026-11-22', [1, 2, 4, 5]), scan(3, '2026-11-23', [1]),
      scan(4, '2026-11-12', [1]),
      scan(5, '2026-11-10', [4, 6]), scan(5, '2026-11-15', [4]), scan(5, '2026-11-19', [4, 6]),
      scan(6, '2026-11-10', [5]), scan(6, '2026-11-22', [5, 7]),
      scan(8, '2026-11-10', [7]), scan(8, '2026-11-21', [7, 4, 14]),
      scan(9, '2026-11-10', [7]),
      scan(10, '2026-11-10', [11]),
      scan(11, '2026-11-10', [10]),
    ],
    'follower_counts.parquet': [
      ['2026-11-01', id(4), 1000], ['2026-11-16', id(4), 1100], ['2026-11-20', id(4), 1150], ['2026-11-22', id(4), 1200],
      ['2026-11-22', id(1), 5000],
      ['2026-10-20', id(5), 700], ['2026-11-10', id(5), 800],
      ['2026-11-20', id(7), 42],
    ],
    'tweets.parquet': [
      [id(501), id(4), '2026-11-21T10:00:00+02:00', 'Big news https://t.co/Ab1 and https://t.co/Ab12 and https://t.co/zz9',
        [{ short_url: 'https://t.co/Ab1', display_url: 'example.com/a' }, { short_url: 'https://t.co/Ab12', display_url: 'example.com/b' }],
        10, 2, 1, 100, [id(1), id(4), id(7)]],
      [id(502), id(99), '2026-11-22T23:30:00+01:00', null, [], 0, 0, 0, 5, [id(7), id(99)]],
      [id(503), id(13), '2026-11-20T12:00:00+00:00', 'gm', [], 1, 0, 0, 7, [id(7), id(7)]],
      [id(504), id(1), '2026-11-23T01:00:00+00:00', 'tomorrow', [], 0, 0, 0, 0, [id(7)]],
    ],
  }
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  if (typeof value === 'string') return sqlString(value)
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`
  return `{${Object.entries(value as object).map(([k, v]) => `${sqlString(k)}: ${literal(v)}`).join(', ')}}`
}

/** Write `rows` as the raw Parquet files of `dir` (types from the raw contract); files absent from `rows` are skipped. */
export async function writeRaw(dir: string, rows: RawRows): Promise<string> {
  fs.mkdirSync(dir, { recursive: true })
  await inScratch(async (conn) => {
    for (const spec of RAW_FILES) {
      const data = rows[spec.file]
      if (!data) continue
      const columns = Object.entries(spec.columns)
      const select = columns.map(([name, type], i) => `cast(c${i} as ${type}) as ${name}`).join(', ')
      const source = data.length
        ? `(values ${data.map((r) => `(${r.map(literal).join(', ')})`).join(', ')}) t(${columns.map((_, i) => `c${i}`).join(', ')})`
        : `(select ${columns.map((_, i) => `null as c${i}`).join(', ')} limit 0)`
      await conn.run(`copy (select ${select} from ${source}) to ${sqlString(path.join(dir, spec.file))} (format parquet, compression zstd)`)
    }
  })
  return dir
}

/** The files with one slice per day in the daily layout, and the column (or tweet time) that dates a row. */
const DAILY: Record<string, (row: Row) => string> = {
  'follow_scans.parquet': (r) => String(r[0]),
  'follower_counts.parquet': (r) => String(r[0]),
  'tweets.parquet': (r) => new Date(String(r[2])).toISOString().slice(0, 10),
}

/**
 * Write `rows` in the daily layout: one folder `dir/<day>/` per day of `days`, each with the rows of that day
 * (scans and counts by their date, tweets by their UTC creation day) and every reference table. Rows of other days
 * are left out.
 */
export async function writeDailyRaw(dir: string, rows: RawRows, days: string[]): Promise<string> {
  for (const day of days) {
    const slice = Object.fromEntries(
      Object.entries(rows).map(([file, data]) => [file, DAILY[file] ? data.filter((r) => DAILY[file](r) === day) : data]),
    )
    await writeRaw(path.join(dir, day), slice)
  }
  return dir
}

/** The days from `first` to `last`, inclusive (YYYY-MM-DD). */
export function daysBetween(first: string, last: string): string[] {
  const days: string[] = []
  for (let d = new Date(`${first}T00:00:00Z`); d.toISOString().slice(0, 10) <= last; d.setUTCDate(d.getUTCDate() + 1)) {
    days.push(d.toISOString().slice(0, 10))
  }
  return days
}

/**
 * Merge a daily raw folder (`YYYY-MM-DD/` day folders) into the single-folder layout: the daily files of every day
 * concatenated (a tweet delivered on several days once, its latest delivery), the reference tables of the newest day.
 */
export async function flattenRaw(dailyDir: string, dir = tempDir('raw-flat')): Promise<string> {
  const days = fs.readdirSync(dailyDir).filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)).sort()
  await inScratch(async (conn) => {
    for (const { file } of RAW_FILES) {
      const sources = DAILY[file] ? days.map((d) => path.join(dailyDir, d, file)) : [path.join(dailyDir, days.at(-1)!, file)]
      const latest = file === 'tweets.parquet' ? 'qualify row_number() over (partition by tweet_id order by filename desc) = 1' : ''
      await conn.run(`copy (select * exclude (filename) from read_parquet([${sources.map(sqlString).join(', ')}], filename = true) ${latest})
        to ${sqlString(path.join(dir, file))} (format parquet, compression zstd)`)
    }
  })
  const truth = path.join(dailyDir, '_truth.json')
  if (fs.existsSync(truth)) fs.copyFileSync(truth, path.join(dir, '_truth.json'))
  return dir
}

/** Rewrite one raw file of `dir` in place (every day folder's, in the daily layout): see `rewriteRawFile`. */
export const rewriteRaw = rewriteRawFile

/** A copy of a raw folder in a fresh temporary directory. */
export function copyRaw(dir: string): string {
  const copy = tempDir('raw-copy')
  fs.cpSync(dir, copy, { recursive: true })
  return copy
}

/** The folders `tempDir` made in this test process: removed when it exits. */
const tempDirs: string[] = []

/** A fresh temporary directory, removed when the test process exits. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`))
  if (tempDirs.push(dir) === 1) process.once('exit', () => tempDirs.forEach((made) => fs.rmSync(made, { recursive: true, force: true })))
  return dir
}

/**
 * Rows of a file or history table of the snapshot in `dir` (or a query over it, `t` = the file or table) as
 * JSON-safe objects: its view, as `npm run sql` has it (a history table's over its parts:
 * pipeline/snapshot-sql.ts).
 */
export function readSnapshot(dir: string, table: string, sql = 'select * from t'): Promise<Record<string, unknown>[]> {
  return inScratch(async (conn) => {
    await createSnapshotViews(conn, dir)
    await conn.run(`create view t as select * from ${table}`)
    return (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[]
  })
}

/** Rows of a Parquet file (or a query over it, `t` = the file) as JSON-safe objects. */
export function readParquet(file: string, sql = 'select * from t'): Promise<Record<string, unknown>[]> {
  return inScratch(async (conn) => {
    await conn.run(`create view t as select * from read_parquet(${sqlString(file)})`)
    return (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[]
  })
}

let generated: Promise<string> | undefined

/**
 * The tiny generated world (seed 42, 60 day folders ending on BUILD_DATE), generated once per process: read it, or
 * change a copy (copyRaw).
 */
export function generatedTiny(): Promise<string> {
  generated ??= (async () => {
    const dir = tempDir('generated-tiny')
    await generateRaw({ scale: 'tiny', seed: 42, outDir: dir, endDate: BUILD_DATE })
    return dir
  })()
  return generated
}
