/**
 * Atomic publication: marts → Parquet (zstd) in a hidden temporary folder, manifest.json, rename to
 * `<date>_<build_id>`, then swap the `current` symlink with a rename. Published folders are never written again.
 * A folder counts as published once `.published/<name>` exists (written just before the swap); one build at a time
 * holds `.build.lock`, and it removes what killed builds left: `.tmp-*` folders and never-published snapshot folders.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { log } from '../log/logger.ts'
import { queryRows, queryValue, sqlString } from './duckdb.ts'
import { fanOut } from './fan-out.ts'
import { sha256File } from './file-hash.ts'
import { writeFileNamed } from './file-write.ts'
import { acquireProcessLock } from './process-lock.ts'
import { MARTS } from './models.ts'

export interface ManifestFile {
  file: string
  rows: number
  sha256: string
  schema: { name: string; type: string }[]
}

export interface Manifest {
  snapshot_id: string
  build_date: string
  built_at: string
  raw_source: string
  raw_files: { file: string; rows: number; sha256: string }[]
  files: ManifestFile[]
  score_params: Record<string, unknown>
  /** the parts of each history table (pipeline/history-parts.ts); their Parquet files are among `files` */
  parts: Record<string, PartEntry[]>
  /** how the state was brought to build_date: a night on the day before's state, or a fold from scratch */
  state: { dir: string; mode: 'night' | 'import'; replayed_days: string[]; rewound_to: string | null; unfolded_raw_days: string[] }
}

/**
 * A part of a history table (a closed month, YYYY-MM, or a week of the build date's month, by its first day,
 * YYYY-MM-DD): its row count, the sum of its rows' hashes and the fingerprint that tells whether the next night can
 * link it.
 */
export interface PartEntry {
  period: string
  rows: number
  /** the sum of its rows' hashes (a manifest written before it was kept has none: its parts are read again) */
  hashes?: string
  fingerprint: string
}

const SNAPSHOT_NAME = /^\d{4}-\d{2}-\d{2}_/

/** Write every mart as `<mart>.parquet` into `dir`, two at a time on their own connections; the manifest entries. */
export async function writeMarts(connect: () => Promise<DuckDBConnection>, dir: string, parallel = 2): Promise<ManifestFile[]> {
  const started = Date.now()
  const files = await fanOut(MARTS, parallel, connect, async (conn, mart) => {
    const file = path.join(dir, `${mart}.parquet`)
    await conn.run(`copy ${mart} to ${sqlString(file)} (format parquet, compression zstd)`)
    const schema = (await queryRows(conn, `describe ${mart}`)).map((c) => ({
      name: String(c.column_name),
      type: String(c.column_type),
    }))
    const rows = Number(await queryValue(conn, `select count(*) from ${mart}`))
    return { file: `${mart}.parquet`, rows, sha256: await sha256File(file), schema }
  })
  log.info('build.step', { step: 'write_parquet', layer: 'publish', rows: files.reduce((n, f) => n + f.rows, 0), ms: Date.now() - started })
  return files
}

const PUBLISHED = '.published'

/** Mark `name` as published (before `current` points to it): only published folders count toward the kept ones. */
export function markFolderPublished(snapshotsDir: string, name: string): void {
  fs.mkdirSync(path.join(snapshotsDir, PUBLISHED), { recursive: true })
  writeFileNamed(path.join(snapshotsDir, PUBLISHED, name), '')
}

function isPublished(snapshotsDir: string, name: string, current: string | null, currentBuilt: string): boolean {
  if (name === current || fs.existsSync(path.join(snapshotsDir, PUBLISHED, name))) return true
  // folders published before markers existed: built no later than the folder `current` points to
  return currentBuilt !== '' && builtAt(path.join(snapshotsDir, name)) <= currentBuilt
}

/** The name of the snapshot folder `snapshots/current` points to, or null before the first snapshot. */
export function currentName(snapshotsDir: string): string | null {
  try {
    return fs.readlinkSync(path.join(snapshotsDir, 'current'))
  } catch {
    return null
  }
}

/** The folder `snapshots/current` points to, or null before the first snapshot. */
export function currentDir(snapshotsDir: string): string | null {
  const name = currentName(snapshotsDir)
  return name === null ? null : path.resolve(snapshotsDir, name)
}

/** The build date of the snapshot `current` points to, or null (none, or its manifest unreadable). */
export const currentBuildDate = (snapshotsDir: string) => manifestOf(path.join(snapshotsDir, 'current'))?.build_date ?? null

/** The manifest of the snapshot folder `dir`, or null when it has none that reads. */
function manifestOf(dir: string): Manifest | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest
  } catch {
    return null
  }
}

/** Another build holds the snapshots folder: this one did nothing (and records no outcome). */
export { LockHeldError as BuildLockedError } from './process-lock.ts'

/** One build at a time per snapshots folder (`.build.lock`, process-lock.ts); returns the release function. */
export const acquireBuildLock = (snapshotsDir: string) => acquireProcessLock(path.join(snapshotsDir, '.build.lock'), 'build')

/**
 * Remove what killed builds left (call with the build lock held): `.tmp-*` folders, `current.tmp-*` links and
 * snapshot folders that were never published. Returns the names removed.
 */
export function removeAbandoned(snapshotsDir: string): string[] {
  const current = currentName(snapshotsDir)
  const currentBuilt = current ? builtAt(path.join(snapshotsDir, current)) : ''
  const removed = fs.readdirSync(snapshotsDir).filter(
    (name) =>
      name.startsWith('.tmp-') ||
      name.startsWith('current.tmp-') ||
      (SNAPSHOT_NAME.test(name) && !isPublished(snapshotsDir, name, current, currentBuilt)),
  )
  for (const name of removed) fs.rmSync(path.join(snapshotsDir, name), { recursive: true, force: true })
  if (removed.length > 0) log.warn('build.abandoned_removed', { removed })
  return removed
}

/**
 * `snapshots/current` must be absent or a symbolic link (what every build swaps atomically): anything else fails the
 * build before any work, instead of after it.
 */
export function assertCurrentIsLink(snapshotsDir: string): void {
  const current = path.join(snapshotsDir, 'current')
  let stat: fs.Stats
  try {
    stat = fs.lstatSync(current)
  } catch {
    return
  }
  if (!stat.isSymbolicLink()) {
    throw new Error(`${current} must be a symbolic link to a snapshot folder, not a ${stat.isDirectory() ? 'folder' : 'file'}: move it out of ${snapshotsDir} and build again`)
  }
}

/** Point `snapshots/current` at `name` atomically (new symlink under a temporary name, renamed over `current`). */
export function swapCurrent(snapshotsDir: string, name: string): void {
  const temp = path.join(snapshotsDir, `current.tmp-${name}`)
  fs.rmSync(temp, { force: true })
  fs.symlinkSync(name, temp)
  fs.renameSync(temp, path.join(snapshotsDir, 'current'))
}

const builtAt = (dir: string) => manifestOf(dir)?.built_at ?? ''

/** Remove all but the `keep` most recently built published snapshots; never the one `current` points to. */
export function pruneSnapshots(snapshotsDir: string, keep: number): string[] {
  const current = currentName(snapshotsDir)
  if (current === null) return []
  const currentBuilt = builtAt(path.join(snapshotsDir, current))
  const published = fs
    .readdirSync(snapshotsDir)
    .filter((name) => SNAPSHOT_NAME.test(name) && isPublished(snapshotsDir, name, current, currentBuilt))
    .map((name) => ({ name, built: builtAt(path.join(snapshotsDir, name)) }))
    .sort((a, b) => (a.built === b.built ? b.name.localeCompare(a.name) : b.built.localeCompare(a.built)))
  const removed = published.slice(Math.max(keep, 1)).filter((s) => s.name !== current)
  for (const s of removed) removeSnapshot(snapshotsDir, s.name)
  return removed.map((s) => s.name)
}

/** Remove the snapshot folder `name` and its published marker. */
export function removeSnapshot(snapshotsDir: string, name: string): void {
  fs.rmSync(path.join(snapshotsDir, name), { recursive: true, force: true })
  fs.rmSync(path.join(snapshotsDir, PUBLISHED, name), { force: true })
}
