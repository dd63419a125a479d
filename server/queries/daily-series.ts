/**
 * Daily series stored in monthly parts, newest day first per account: the `period` window of the history operations
 * and the trailing `week`/`month` diffs of the diff operations, anchored at today (UTC, request time). Follower counts
 * are stored one row per scanned day; scores one row per change, read over the scored dates.
 *
 * @example const { day, value } = followerCounts(snapshot.followersCountHistory, idx, today, 30)
 * @example const { day, platformScore, rank } = scoreDays(snapshot.scoreHistory, idx, today, 30)
 * @example return scoreDiffBody(snapshot.scoreHistory, idx, now) // { success, today, week, month }
 */
import type { MonthlySeries } from '../snapshot/monthly-series.ts'
import { findId } from '../params/account.ts'
import { formatDay, utcDay } from '../params/dates.ts'

/** Scores stored sparse: an account's rows on the scored dates where its score or rank (0 for NULL) changed. */
export interface ScoreSeries {
  changes: MonthlySeries<'platform_score' | 'rank'>
  /** the scored dates, newest first */
  dates: Uint16Array
}

/**
 * Account `idx`'s rows, newest day first, from the newest month down to `oldest`: the rows dated `oldest` or later
 * (any later than today too) and, with `anchor`, the newest row before them (the value in force on `oldest`). None
 * for an account whose series is not answered.
 */
function accountRows<K extends string>(series: MonthlySeries<K>, idx: number, oldest: number, anchor: boolean) {
  const out = { day: [] as number[], values: Object.fromEntries(series.columns.map((c) => [c, [] as number[]])) as Record<K, number[]> }
  if (series.answered && !series.answered[idx]) return out
  for (const part of series.parts) {
    const k = findId(part.ids, series.accountIds[idx])
    if (k !== undefined) {
      const start = part.offsets[k]
      const day = part.day.read(start, part.offsets[k + 1])
      let n = rowsSince(day, oldest)
      const anchored = anchor && n < day.length
      if (anchored) n++
      out.day.push(...day.subarray(0, n))
      for (const c of series.columns) out.values[c].push(...Array.from(part.values[c].read(start, start + n), Number))
      if (anchored) break
    }
    // older parts hold older days only
    if (!anchor && part.firstDay <= oldest) break
  }
  return out
}

/**
 * The scores of account `idx` on the scored dates from today back to `days - 1` days before (any date after today
 * skipped), newest first: `day[i]` has `platformScore[i]` and `rank[i]` (0 for NULL); dates on which it had no score,
 * or a score of 0, are skipped.
 */
export function scoreDays(history: ScoreSeries, idx: number, today: number, days: number) {
  // an account's change rows (newest first): a scored date's score is the newest row on or before it
  const { day: changed, values } = accountRows(history.changes, idx, today - days + 1, true)
  const out = { day: [] as number[], platformScore: [] as number[], rank: [] as number[] }
  let row = 0
  for (const date of history.dates) {
    if (date > today) continue
    if (date <= today - days) break
    while (row < changed.length && changed[row] > date) row++
    if (row === changed.length) break
    if (values.platform_score[row] > 0) {
      out.day.push(date)
      out.platformScore.push(values.platform_score[row])
      out.rank.push(values.rank[row])
    }
  }
  return out
}

/** The follower counts of account `idx` dated today or the previous `days - 1` days (any day after today skipped), newest first. */
export function followerCounts(series: MonthlySeries<'followers_count'>, idx: number, today: number, days: number) {
  const { day, values } = accountRows(series, idx, today - days + 1, false)
  const skip = rowsSince(day, today + 1)
  return { day: day.slice(skip), value: values.followers_count.slice(skip) }
}

/** How many leading days (newest first) are `oldest` or later. */
function rowsSince(day: ArrayLike<number>, oldest: number): number {
  let n = 0
  while (n < day.length && day[n] >= oldest) n++
  return n
}

/**
 * The diff operations' body: for the trailing 7 (`week`) and 30 (`month`) days ending today (UTC at `now`), the date
 * of the oldest stored value, newest minus oldest (0 with fewer than two values), and that difference signed (`+N`,
 * `-N` or `0`).
 */
export function diffBody(series: MonthlySeries<'followers_count'>, idx: number, now: Date) {
  const today = utcDay(now)
  const { day, value } = followerCounts(series, idx, today, 30)
  return windowsBody(day, value, today, 0)
}

/** diffBody over the stored scores (2 decimals): the scores of the scored dates, days without a score skipped. */
export function scoreDiffBody(history: ScoreSeries, idx: number, now: Date) {
  const today = utcDay(now)
  const { day, platformScore } = scoreDays(history, idx, today, 30)
  return windowsBody(day, platformScore, today, 2)
}

/** The diff body of a month's values `read` dated `day` (newest first). */
function windowsBody(day: ArrayLike<number>, read: ArrayLike<number | bigint>, today: number, decimals: number) {
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
