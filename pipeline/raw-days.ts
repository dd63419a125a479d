/**
 * Where a build finds its raw data (docs/raw-data.md): the crawler's daily layout, one folder per day
 * (`raw/YYYY-MM-DD/`, every file of the contract), or the single-folder layout (every file directly in `raw/`, rows
 * of many days), which a build imports as history by folding all of it from scratch.
 *
 * @example const layout = rawLayout('raw'); layout.kind === 'daily' && layout.days.at(-1)
 */
import fs from 'node:fs'
import path from 'node:path'
import { RawInputError } from './validate-raw.ts'

export const DAY_FOLDER = /^\d{4}-\d{2}-\d{2}$/

export type RawLayout =
  | { kind: 'daily'; root: string; /** day folders, oldest first */ days: string[] }
  | { kind: 'single'; root: string }

/** Files with one slice per day; the others are reference tables (every day folder carries the current ones). */
export const DAILY_FILES = ['follow_scans.parquet', 'follower_counts.parquet', 'tweets.parquet']

export function rawLayout(rawDir: string): RawLayout {
  const root = path.resolve(rawDir)
  if (!fs.existsSync(root)) throw new RawInputError(root, 'raw folder does not exist')
  if (fs.existsSync(path.join(root, 'accounts.parquet'))) return { kind: 'single', root }
  const days = fs
    .readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && DAY_FOLDER.test(e.name) && !Number.isNaN(Date.parse(`${e.name}T00:00:00Z`)))
    .map((e) => e.name)
    .sort()
  if (days.length === 0) {
    throw new RawInputError(root, 'neither day folders (YYYY-MM-DD/) nor the single-folder files (accounts.parquet, ...)')
  }
  return { kind: 'daily', root, days }
}

/** The folder whose reference tables describe `date`: the newest day folder on or before it. */
export function referenceDay(layout: RawLayout & { kind: 'daily' }, date: string): string | undefined {
  return layout.days.filter((d) => d <= date).at(-1)
}
