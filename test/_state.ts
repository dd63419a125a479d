/**
 * Helpers of the pipeline-state tests: nightly builds, every mart of a snapshot, and the state file read or changed
 * directly (to check what it holds, or to make it one an earlier version wrote).
 */
import * as assert from 'uvu/assert'
import fs from 'node:fs'
import path from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { buildSnapshot } from '../pipeline/build.ts'
import { HISTORY_TABLES, PART_FILE } from '../pipeline/history-tables.ts'
import { MARTS } from '../pipeline/models.ts'
import { DERIVED_VIEWS } from '../pipeline/snapshot-sql.ts'
import { readParquet, readSnapshot, tempDir } from './_fixtures.ts'

/**
 * Every mart of the snapshot in `dir`, row for row (`only`: these marts), every part of the history tables (keyed
 * `<table>/period=YYYY-MM[-DD]`) and the views derived from them (the mentions).
 */
export async function marts(dir: string, only?: readonly string[]): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {}
  for (const name of only ?? [...MARTS, ...HISTORY_TABLES.map((t) => t.name), 'mentions', 'smart_mentions']) {
    if (name in DERIVED_VIEWS) {
      out[name] = await readSnapshot(dir, name)
      continue
    }
    if (!HISTORY_TABLES.some((t) => t.name === name)) {
      out[name] = await readParquet(path.join(dir, `${name}.parquet`))
      continue
    }
    // a history table: its parts, and each part's rows
    const parts = fs.existsSync(path.join(dir, name)) ? fs.readdirSync(path.join(dir, name)).sort() : []
    out[name] = parts
    for (const part of parts) out[`${name}/${part}`] = await readParquet(path.join(dir, name, part, PART_FILE))
  }
  return out
}

export function assertSameMarts(actual: Record<string, unknown[]>, expected: Record<string, unknown[]>) {
  for (const mart of Object.keys(expected)) assert.equal(actual[mart], expected[mart], mart)
}

/** Nightly builds of `days`, one after the other, in one snapshots folder; the last result. */
export async function nights(rawDir: string, snapshotsDir: string, days: string[]) {
  let last
  for (const date of days) last = await buildSnapshot({ rawDir, snapshotsDir, date })
  return last!
}

/**
 * A copy of a folder of nightly builds (a raw folder, or a snapshots folder with its state and a relative `current`)
 * in a fresh temporary folder named `name`: for a test that goes on from nights built once for several.
 */
export function copyNights(dir: string, name: string): string {
  const copy = tempDir(name)
  fs.cpSync(dir, copy, { recursive: true, verbatimSymlinks: true })
  return copy
}

/**
 * Nights made once by `build` (a raw folder and a snapshots folder, with whatever else it returns) for the tests that
 * go on from them: each call gives copies of both folders named `name`, the rest as `build` returned it.
 * @example const twoNights = builtOnce(async () => ({ raw, snapshots, last: await nights(raw, snapshots, days) }))
 */
export function builtOnce<T extends { raw: string; snapshots: string }>(build: () => Promise<T>) {
  let built: Promise<T> | undefined
  return async (name: string): Promise<T> => {
    const folders = await (built ??= build())
    return { ...folders, raw: copyNights(folders.raw, `${name}-raw`), snapshots: copyNights(folders.snapshots, name) }
  }
}

/** The rows of `sql` over the state of `snapshotsDir`, attached read-only as `st`. */
export async function queryState(snapshotsDir: string, sql: string) {
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  try {
    await conn.run(`attach '${path.join(snapshotsDir, 'state', 'state.duckdb')}' as st (read_only)`)
    return (await conn.runAndReadAll(sql)).getRowObjectsJson()
  } finally {
    conn.closeSync()
    instance.closeSync()
  }
}

/** Change the state of `snapshotsDir` with `sql` (to make it one an earlier version wrote). */
export async function alterState(snapshotsDir: string, sql: string) {
  const instance = await DuckDBInstance.create(path.join(snapshotsDir, 'state', 'state.duckdb'))
  const conn = await instance.connect()
  try {
    await conn.run(sql)
  } finally {
    conn.closeSync()
    instance.closeSync()
  }
}
