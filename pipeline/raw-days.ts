/**
 * Where a build finds its raw data (docs/raw-data.md): the crawler's daily layout, one folder per day
 * (`raw/YYYY-MM-DD/`, every file of the contract), or the single-folder layout (every file directly in `raw/`, rows
 * of many days), which a build imports as history by folding all of it from scratch.
 *
 * @example const layout = rawLayout('raw'); layout.kind === 'daily' && layout.days.at(-1)
 */
import fs from 'node:fs'
import path from 'node:path'
import { RAW_FILES } from './raw-contract.ts'
import { RawInputError } from './validate-raw.ts'

const DAY_FOLDER = /^\d{4}-\d{2}-\d{2}$/

export type RawLayout =
  | {
      kind: 'daily'
      root: string
      /** day folders, oldest first */
      days: string[]
      /** the other entries, not read (names that start with `.` or `_` aside) */
      ignored: string[]
    }
  | { kind: 'single'; root: string }

/** Files with one slice per day; the others are reference tables (every day folder carries the current ones). */
export const DAILY_FILES = ['follow_scans.parquet', 'follower_counts.parquet', 'tweets.parquet']

export function rawLayout(rawDir: string): RawLayout {
  const root = path.resolve(rawDir)
  if (!fs.existsSync(root)) throw new RawInputError(root, 'raw folder does not exist')
  // day folders may be symbolic links to folders (statSync follows them)
  const entries = fs.readdirSync(root)
  const names = entries.filter((name) => DAY_FOLDER.test(name) && isFolder(path.join(root, name)))
  const invalid = names.find((name) => !isCalendarDay(name))
  if (invalid) throw new RawInputError(path.join(root, invalid), 'a day folder must be named by a real date (YYYY-MM-DD)')
  const single = fs.existsSync(path.join(root, 'accounts.parquet'))
  const stray = RAW_FILES.map((f) => f.file).filter((file) => fs.existsSync(path.join(root, file)))
  if (stray.length > 0 && names.length > 0) {
    throw new RawInputError(
      root,
      `holds both day folders and raw files of its own (${stray.join(', ')}): move the stray files away (the single-folder layout, imported from scratch, would replace the state)`,
    )
  }
  if (single) return { kind: 'single', root }
  if (names.length === 0) {
    throw new RawInputError(root, 'neither day folders (YYYY-MM-DD/) nor the single-folder files (accounts.parquet, ...)')
  }
  const ignored = entries.filter((name) => !names.includes(name) && !/^[._]/.test(name)).sort()
  return { kind: 'daily', root, days: names.sort(), ignored }
}

function isFolder(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory()
  } catch (error) {
    throw new RawInputError(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}): a broken link?`)
  }
}

/** Whether `text` (YYYY-MM-DD) is a date of the calendar: 2026-02-30 and 2026-13-01 are not. */
export function isCalendarDay(text: string): boolean {
  const time = Date.parse(`${text}T00:00:00Z`)
  return DAY_FOLDER.test(text) && !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === text
}

/** The folder whose reference tables describe `date`: the newest day folder on or before it. */
export function referenceDay(layout: RawLayout & { kind: 'daily' }, date: string): string | undefined {
  return layout.days.filter((d) => d <= date).at(-1)
}
