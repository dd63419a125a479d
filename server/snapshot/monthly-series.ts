/**
 * A daily series stored as monthly parts (`serving/<table>/month=YYYY-MM/`, written by pipeline/history-parts.ts; see
 * docs/snapshot.md): per part, the account ids it holds (ascending) and their row offsets in memory, the days and
 * values on disk, an account's rows newest day first.
 *
 * @example const history = openMonthlySeries(dir, 'followers_count_history', 'followers_count', accounts)
 */
import fs from 'node:fs'
import path from 'node:path'
import { openServingFiles, type DiskColumn } from './serving-files.ts'

export interface MonthlyPart {
  /** the month's first day (days since 1970-01-01) */
  firstDay: number
  /** the rows of `ids[k]` are `offsets[k] .. offsets[k + 1] - 1` */
  ids: BigUint64Array
  offsets: Int32Array
  day: DiskColumn<'u16'>
  value: DiskColumn<'u32'>
}

export interface MonthlySeries {
  /** newest month first */
  parts: MonthlyPart[]
  /** each account_idx's platform id */
  accountIds: BigUint64Array
  /** 1 for the accounts whose series are answered (the others have none) */
  answered: Uint8Array
}

export function openMonthlySeries(
  snapshotDir: string,
  table: string,
  valueColumn: string,
  accounts: { numericId: BigUint64Array; isMonitored: Uint8Array },
): MonthlySeries {
  const dir = path.join(snapshotDir, 'serving', table)
  const months = fs.existsSync(dir) ? fs.readdirSync(dir).sort().reverse() : []
  const parts = months.map((month) => {
    const files = openServingFiles(path.join(dir, month))
    return {
      firstDay: Date.parse(`${month.slice('month='.length)}-01T00:00:00Z`) / 86_400_000,
      ids: files.array('platform_id', 'u64'),
      offsets: files.array('offsets', 'i32'),
      day: files.disk('day', 'u16'),
      value: files.disk(valueColumn, 'u32'),
    }
  })
  return { parts, accountIds: accounts.numericId, answered: accounts.isMonitored }
}
