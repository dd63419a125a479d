/**
 * A daily series stored in parts, a closed month or a week of the build date's month
 * (`serving/<table>/period=YYYY-MM/` or `period=YYYY-MM-DD/`, the week's first day; written by
 * pipeline/history-parts.ts, see docs/snapshot.md): per part, the account ids it holds (ascending), their row offsets
 * and the rows' days in memory (2 bytes a row: a period is found without a read per part), the values on disk, an
 * account's rows newest day first.
 *
 * @example const history = await openSeriesParts(dir, 'followers_count_history', { followers_count: 'u32' }, accounts.numericId, accounts.isMonitored)
 */
import fs from 'node:fs'
import path from 'node:path'
import type { ColumnType } from '../../pipeline/serving-writer.ts'
import { openServingFiles, type DiskColumn } from './serving-files.ts'

export interface SeriesPart<K extends string> {
  /** the part's first day (days since 1970-01-01) */
  firstDay: number
  /** the rows of `ids[k]` are `offsets[k] .. offsets[k + 1] - 1` */
  ids: BigUint64Array
  offsets: Int32Array
  day: Uint16Array
  values: Record<K, DiskColumn<ColumnType>>
  /** the positions (ascending) of the rows each mark names (pipeline/history-tables.ts, `marks`) */
  marks: Record<string, Int32Array>
}

export interface SeriesParts<K extends string> {
  /** newest part first */
  parts: SeriesPart<K>[]
  /** each account_idx's platform id */
  accountIds: BigUint64Array
  /** 1 for the accounts whose series are answered (the others have none) */
  answered: Uint8Array
}

export async function openSeriesParts<K extends string>(
  snapshotDir: string,
  table: string,
  columns: Record<K, ColumnType>,
  accountIds: BigUint64Array,
  answered: Uint8Array,
  marks: string[] = [],
): Promise<SeriesParts<K>> {
  const parts: SeriesPart<K>[] = []
  for (const folder of partFolders(snapshotDir, table)) {
    const files = openServingFiles(folder, 'part')
    const values = {} as Record<K, DiskColumn<ColumnType>>
    for (const [name, type] of Object.entries(columns) as [K, ColumnType][]) values[name] = files.disk(name, type)
    parts.push({
      firstDay: Date.parse(`${path.basename(folder).slice('period='.length)}-01`.slice(0, 10)) / 86_400_000,
      ids: await files.array('platform_id', 'u64'),
      offsets: await files.array('offsets', 'i32'),
      day: await files.array('day', 'u16'),
      values,
      marks: Object.fromEntries(await Promise.all(marks.map(async (mark) => [mark, await files.array(mark, 'i32')] as const))),
    })
  }
  return { parts, accountIds, answered }
}

/** The serving folders of `table`'s parts (`serving/<table>/period=YYYY-MM[-DD]/`), newest first. */
export function partFolders(snapshotDir: string, table: string): string[] {
  const dir = path.join(snapshotDir, 'serving', table)
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort().reverse().map((month) => path.join(dir, month)) : []
}
