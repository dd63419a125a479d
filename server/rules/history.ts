/**
 * Daily series stored newest day first per account (follower counts, scores): the `period` window of the history
 * operations and the trailing `week`/`month` diffs of the diff operations, anchored at today (UTC, request time).
 *
 * @example const { first, last } = dayRows(snapshot.scoreHistory, idx, today, readPeriodDays(query))
 * @example windowDiff(snapshot.followersCountHistory, snapshot.followersCountHistory.followersCount, idx, today, 7, 0)
 */
import type { Parameter } from '../operation.ts'
import { string } from '../schema.ts'
import type { Adjacency } from '../snapshot/types.ts'
import { formatDay } from './dates.ts'

/** One value per (account, day), rows of an account newest day first. */
export interface DailySeries extends Adjacency {
  day: ArrayLike<number>
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

/** Rows [first, last) of account `idx` dated today or the previous `days - 1` days (any day after today skipped). */
export function dayRows(series: DailySeries, idx: number, today: number, days: number): { first: number; last: number } {
  const oldest = today - days + 1
  let first = series.offsets[idx]
  const stop = series.offsets[idx + 1]
  while (first < stop && series.day[first] > today) first++
  // the whole history (`all`) ends at the account's last row: no day to read (series may be read from disk)
  let last = days === Infinity ? stop : first
  while (last < stop && series.day[last] >= oldest) last++
  return { first, last }
}

/**
 * Within today and the previous `days - 1` days: the date of the oldest stored value, newest minus oldest rounded
 * to `decimals` (0 with fewer than two values), and that difference signed (`+N`, `-N` or `0`, with `decimals`
 * digits after the point).
 */
export function windowDiff(
  series: DailySeries,
  values: ArrayLike<number>,
  idx: number,
  today: number,
  days: number,
  decimals: number,
) {
  const { first, last } = dayRows(series, idx, today, days)
  const scale = 10 ** decimals
  // `+ 0` turns a rounded -0 into 0
  const diff = last - first > 1 ? Math.round((values[first] - values[last - 1]) * scale) / scale + 0 : 0
  return {
    date: last > first ? formatDay(series.day[last - 1]) : null,
    diff,
    diff_str: diff > 0 ? `+${diff.toFixed(decimals)}` : diff < 0 ? diff.toFixed(decimals) : '0',
  }
}
