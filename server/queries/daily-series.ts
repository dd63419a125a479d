/**
 * Daily series stored newest day first per account (follower counts, scores): the `period` window of the history
 * operations and the trailing `week`/`month` diffs of the diff operations, anchored at today (UTC, request time).
 *
 * The series live on disk: a request reads the account's days once, then the values of the rows it answers with.
 *
 * @example const { first, day } = dayRows(snapshot.scoreHistory, idx, today, readPeriodDays(query))
 * @example const [week, month] = windowDiffs(snapshot.scoreHistory, snapshot.scoreHistory.platformScore, idx, today, [7, 30], 2)
 */
import type { Parameter } from '../operations/define.ts'
import { string } from '../openapi/schema.ts'
import type { DiskColumn, NumericType } from '../snapshot/sidecar.ts'
import type { Adjacency } from '../snapshot/types.ts'
import { formatDay } from '../params/dates.ts'

/** One value per (account, day), rows of an account newest day first. */
export interface DailySeries extends Adjacency {
  day: DiskColumn<'u16'>
}

/** `period` value (lower case) → days in the window; `all` = the whole stored history. */
export const PERIOD_DAYS: Record<string, number> = {
  '3d': 3,
  '7d': 7,
  '1w': 7,
  '30d': 30,
  '1m': 30,
  '180d': 180,
  '6m': 180,
  '365d': 365,
  '1y': 365,
  all: Infinity,
}
const DEFAULT_PERIOD_DAYS = 30

/** `period`, case-insensitive; absent or unrecognised → 30 days. */
export function readPeriodDays(query: URLSearchParams): number {
  return PERIOD_DAYS[query.get('period')?.trim().toLowerCase() ?? ''] ?? DEFAULT_PERIOD_DAYS
}

export const periodParameter: Parameter = {
  name: 'period',
  description:
    'Case-insensitive. `1w` = 7 days, `1m` = 30, `6m` = 180, `1y` = 365, `all` = whole history; the window is today (UTC) and the previous N-1 days. Unrecognised values fall back to 30 days.',
  schema: { ...string({ enum: Object.keys(PERIOD_DAYS) }), default: '30d' },
}

/**
 * The rows of account `idx` dated today or the previous `days - 1` days (any day after today skipped): rows
 * `first..first + day.length - 1`, row `r` dated `day[r - first]`.
 */
export function dayRows(series: DailySeries, idx: number, today: number, days: number): { first: number; day: Uint16Array } {
  const start = series.offsets[idx]
  const stored = series.day.read(start, series.offsets[idx + 1])
  let skip = 0
  while (skip < stored.length && stored[skip] > today) skip++
  const rest = stored.subarray(skip)
  return { first: start + skip, day: rest.subarray(0, rowsSince(rest, today - days + 1)) }
}

/** How many leading days (newest first) are `oldest` or later. */
function rowsSince(day: Uint16Array, oldest: number): number {
  let n = 0
  while (n < day.length && day[n] >= oldest) n++
  return n
}

/**
 * For each window of `windows` days (today and the previous N-1): the date of the oldest stored value, newest minus
 * oldest rounded to `decimals` (0 with fewer than two values), and that difference signed (`+N`, `-N` or `0`, with
 * `decimals` digits after the point). The rows of the widest window are read once.
 */
export function windowDiffs(
  series: DailySeries,
  values: DiskColumn<NumericType>,
  idx: number,
  today: number,
  windows: number[],
  decimals: number,
) {
  const { first, day } = dayRows(series, idx, today, Math.max(...windows))
  const read = values.read(first, first + day.length)
  const scale = 10 ** decimals
  // every window's rows are leading rows of the widest one
  return windows.map((days) => {
    const n = rowsSince(day, today - days + 1)
    // `+ 0` turns a rounded -0 into 0
    const diff = n > 1 ? Math.round((read[0] - read[n - 1]) * scale) / scale + 0 : 0
    return {
      date: n > 0 ? formatDay(day[n - 1]) : null,
      diff,
      diff_str: diff > 0 ? `+${diff.toFixed(decimals)}` : diff < 0 ? diff.toFixed(decimals) : '0',
    }
  })
}
