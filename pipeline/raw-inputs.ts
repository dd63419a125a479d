/**
 * What a build reads of the raw folder for a date (docs/raw-data.md, docs/pipeline.md): the day folders it folds, the
 * folder of its reference tables and the folders it checks first; the `raw_<file>` views the staging models read; and
 * retention, which deletes the folders the state has folded.
 *
 * @example const inputs = inputsFor(rawLayout('raw'), '2026-11-22', 'night'); await validateAll(db, inputs.checked)
 */
import fs from 'node:fs'
import path from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { log } from '../log/logger.ts'
import { sqlString, type PipelineDb } from './duckdb.ts'
import type { Plan } from './plan.ts'
import { RAW_FILES } from './raw-contract.ts'
import { DAILY_FILES, rawLayout, referenceDay, type RawLayout } from './raw-days.ts'
import { validateRaw, type RawFileInfo, type RawFolder } from './validate-raw.ts'

/** raw_<file> views over the daily files of `folders` (none: empty, typed by the raw contract). */
export async function setRawViews(conn: DuckDBConnection, folders: string[]): Promise<void> {
  for (const file of DAILY_FILES) {
    const view = `raw_${file.replace('.parquet', '')}`
    const spec = RAW_FILES.find((f) => f.file === file)!
    const source = folders.length
      ? `read_parquet([${folders.map((d) => sqlString(path.join(d, file))).join(', ')}], filename = true, union_by_name = true)`
      : `(select ${Object.entries(spec.columns).map(([c, t]) => `null::${t} as ${c}`).join(', ')}, null::varchar as filename limit 0)`
    await conn.run(`create or replace view ${view} as select * from ${source}`)
  }
}

export interface Inputs {
  mode: Plan['mode']
  /** folders whose daily files this build folds */
  folders: RawFolder[]
  /** folder of the reference tables */
  referenceDir: string
  /** the folders to check: those folded, and the reference folder when it is not one of them (a gap day's) */
  checked: RawFolder[]
}

export function inputsFor(layout: RawLayout, date: string, mode: Plan['mode']): Inputs {
  if (layout.kind === 'single') {
    const folders = [{ dir: layout.root, prefix: '', until: date }]
    return { mode, folders, referenceDir: layout.root, checked: folders }
  }
  const reference = referenceDay(layout, date)
  if (!reference) throw new Error(`no raw day folder on or before ${date} in ${layout.root}`)
  const days = mode === 'import' ? layout.days.filter((d) => d <= date) : layout.days.filter((d) => d === date)
  const folder = (day: string) => ({ dir: path.join(layout.root, day), prefix: `${day}/`, day, until: date })
  const folders = days.map(folder)
  return {
    mode,
    folders,
    referenceDir: path.join(layout.root, reference),
    checked: days.includes(reference) ? folders : [...folders, folder(reference)],
  }
}

export async function validateAll(db: PipelineDb, folders: RawFolder[]): Promise<RawFileInfo[]> {
  const started = Date.now()
  const infos = await validateRaw(() => db.connect(), folders)
  const rows = infos.reduce((n, f) => n + f.rows, 0)
  log.info('build.step', { step: 'validate_raw', layer: 'raw', rows, ms: Date.now() - started })
  return infos
}

/**
 * Delete the raw day folders before `date` that the state has folded, but for the newest folder on or before `date`,
 * whose reference tables a gap day after it reads. A folder the state has not folded (delivered late) stays.
 */
export function pruneRawDays(rawDir: string, date: string, folded: Set<string>): string[] {
  const layout = rawLayout(rawDir)
  if (layout.kind !== 'daily') return []
  const reference = referenceDay(layout, date)
  const pruned: string[] = []
  const failed: string[] = []
  for (const day of layout.days.filter((d) => d < date && d !== reference && folded.has(d))) {
    try {
      fs.rmSync(path.join(layout.root, day), { recursive: true, force: true })
      pruned.push(day)
    } catch (error) {
      failed.push(`${day} (${(error as NodeJS.ErrnoException).code ?? String(error)})`)
    }
  }
  // one folder that cannot go does not keep the others
  if (failed.length > 0) throw new Error(`cannot delete raw day folders ${failed.join(', ')}; deleted ${pruned.join(', ') || 'none'}`)
  return pruned
}
