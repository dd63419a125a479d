/**
 * Daily series stored newest day first per account (follower counts, scores): the `period` window of the history
 * operations and the trailing `week`/`month` diffs of the diff operations, anchored at today (UTC, request time).
 *
 * @example const { first, day } = dayRows(snapshot.scoreHistory, idx, today, 30)
 * @example return diffBody(snapshot.scoreHistory, snapshot.scoreHistory.platformScore, idx, now, 2) // { success, today, week, month }
 */
import type { DiskColumn } from '../snapshot/serving-files.ts'
import { formatDay, utcDay } from '../params/dates.ts'

/** One value per (account, day), rows of an account newest day first. */
export interface DailySeries {
  offsets: Int32Array
  day: DiskColumn<'u16'>
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
 * The diff operations' body: for the trailing 7 (`week`) and 30 (`month`) days ending today (UTC at `now`), the date
 * of the oldest stored value, newest minus oldest rounded to `decimals` (0 with fewer than two values), and that
 * difference signed (`+N`, `-N` or `0`, with `decimals` digits after the point).
 */
export function diffBody(series: DailySeries, values: DiskColumn<'u32' | 'f64'>, idx: number, now: Date, decimals: number) {
  const today = utcDay(now)
  const { first, day } = dayRows(series, idx, today, 30)
  const read = values.read(first, first + day.length)
  const scale = 10 ** decimals
  // the week's rows are leading rows of the month's
  const [week, month] = [7, 30].map((days) => {
    const n = rowsSince(day, today - days + 1)
    // `+ 0` turns a rounded -0 into 0
    const diff = n > 1 ? Math.round((Number(read[0]) - Number(read[n - 1])) * scale) / scale + 0 : 0
    return {
      date: n > 0 ? formatDay(day[n - 1]) : null,
      diff,
      diff_str: diff > 0 ? `+${diff.toFixed(decimals)}` : diff < 0 ? diff.toFixed(decimals) : '0',
    }
  })
  return { success: true, today: formatDay(today), week, month }
}
