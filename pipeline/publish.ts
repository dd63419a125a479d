/**
 * Atomic publication: marts → Parquet (zstd) in a hidden temporary folder, manifest.json, rename to
 * `<date>_<build_id>`, then swap the `current` symlink with a rename. Published folders are never written again.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { queryRows, queryValue, sqlString } from './duckdb.ts'
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
}

const SNAPSHOT_NAME = /^\d{4}-\d{2}-\d{2}_/

function sha256File(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')
}

/** Write every mart as `<mart>.parquet` into `dir`; returns the manifest entries. */
export async function writeMarts(conn: DuckDBConnection, dir: string): Promise<ManifestFile[]> {
  const files: ManifestFile[] = []
  for (const mart of MARTS) {
    const file = path.join(dir, `${mart}.parquet`)
    await conn.run(`copy ${mart} to ${sqlString(file)} (format parquet, compression zstd)`)
    const schema = (await queryRows(conn, `describe ${mart}`)).map((c) => ({
      name: String(c.column_name),
      type: String(c.column_type),
    }))
    const rows = Number(await queryValue(conn, `select count(*) from ${mart}`))
    files.push({ file: `${mart}.parquet`, rows, sha256: sha256File(file), schema })
  }
  return files
}

/** Point `snapshots/current` at `name` atomically (new symlink under a temporary name, renamed over `current`). */
export function swapCurrent(snapshotsDir: string, name: string): void {
  const temp = path.join(snapshotsDir, `current.tmp-${name}`)
  fs.rmSync(temp, { force: true })
  fs.symlinkSync(name, temp)
  fs.renameSync(temp, path.join(snapshotsDir, 'current'))
}

function builtAt(dir: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest).built_at
  } catch {
    return ''
  }
}

/** Remove all but the `keep` most recently built snapshots; never the one `current` points to. */
export function pruneSnapshots(snapshotsDir: string, keep: number): string[] {
  const current = fs.readlinkSync(path.join(snapshotsDir, 'current'))
  const published = fs
    .readdirSync(snapshotsDir)
    .filter((name) => SNAPSHOT_NAME.test(name))
    .map((name) => ({ name, built: builtAt(path.join(snapshotsDir, name)) }))
    .sort((a, b) => (a.built === b.built ? b.name.localeCompare(a.name) : b.built.localeCompare(a.built)))
  const removed = published.slice(Math.max(keep, 1)).filter((s) => s.name !== current)
  for (const s of removed) fs.rmSync(path.join(snapshotsDir, s.name), { recursive: true, force: true })
  return removed.map((s) => s.name)
}
