/**
 * Daily series stored newest day first per account: the `period` window of the history operations and the trailing
 * `week`/`month` diffs of the diff operations, anchored at today (UTC, request time). Follower counts are stored one
 * row per scanned day, in parts (a closed month or a week); scores one row per change, read over the scored dates.
 *
 * @example const { day, counts } = followerCounts(snapshot.followersCountHistory, idx, today, 30)
 * @example const { day, scores } = scoreDays(snapshot.scoreHistory, idx, today, 30) // scores(start, end)
 * @example return scoreDiffBody(snapshot.scoreHistory, idx, now) // { success, today, week, month }
 */
import type { Snapshot } from '../snapshot/load.ts'
import type { SeriesParts } from '../snapshot/series-parts.ts'
import { findId } from '../params/account.ts'
import { formatDay, utcDay } from '../params/dates.ts'
import { date, nullable, object, string, type JsonSchema } from '../openapi/schema.ts'

/** Scores stored sparse: an account's rows (newest first) on the scored dates where its score changed; ranks per date. */
type ScoreSeries = Snapshot['scoreHistory']

/**
 * Account `idx`'s rows dated `oldest` or later (any later than today too), and with `asOf` the newest row before
 * `oldest` too (the value as of then), newest day first across the parts: their days, `read(column, from, to)`, the
 * values of rows from..to-1 (only those are read from disk), and `marked(mark)`, the rows its parts mark (ascending).
 * None for an account whose series is not answered.
 */
function accountRows<K extends string>(series: SeriesParts<K>, idx: number, oldest: number, asOf = false) {
  const segments: { part: SeriesParts<K>['parts'][number]; start: number; first: number; days: Uint16Array }[] = []
  let length = 0
  let before = asOf ? 1 : 0
  for (const part of series.answered[idx] ? series.parts : []) {
    const k = findId(part.ids, series.accountIds[idx])
    if (k !== undefined) {
      const rows = part.day.subarray(part.offsets[k], part.offsets[k + 1])
      const since = rowsSince(rows, oldest)
      const older = Math.min(before, rows.length - since)
      before -= older
      const days = rows.subarray(0, since + older)
      segments.push({ part, start: part.offsets[k], first: length, days })
      length += days.length
    }
    // older parts hold older days only
    if (part.firstDay <= oldest && before === 0) break
  }
  const day = new Uint16Array(length)
  for (const { first, days } of segments) day.set(days, first)
  const read = (column: K, from: number, to: number) =>
    segments.flatMap(({ part, start, first }, i) => {
      const [lo, hi] = [Math.max(from, first), Math.min(to, segments[i + 1]?.first ?? day.length)]
      return lo < hi ? Array.from(part.values[column].read(start + lo - first, start + hi - first), Number) : []
    })
  // (marks are rare rows: a pass over each part's few)
  const marked = (mark: string) =>
    segments.flatMap(({ part, start, first, days }) =>
      Array.from(part.marks[mark].filter((m) => m >= start && m < start + days.length), (m) => m - start + first))
  return { day, read, marked }
}

/**
 * The scored dates from today back to `days - 1` days before (any date after today skipped) on which account `idx`
 * had a score above 0, newest first (`day`), and `scores(from, to)`: its scores on day[from..to-1] (only the change
 * rows they need are read from disk).
 */
export function scoreDays(history: ScoreSeries, idx: number, today: number, days: number) {
  // an account's change rows (newest first): a scored date's score is the newest row on or before it, none when that
  // row ended the score (a score of 0: marked, so no value is read to skip it)
  const { day: changed, read, marked } = accountRows(history.changes, idx, today - days + 1, true)
  const ended = marked('ended')
  const day: number[] = []
  const rowOf: number[] = []
  let [row, end] = [0, 0]
  for (const date of history.dates) {
    if (date > today) continue
    if (date <= today - days) break
    while (row < changed.length && changed[row] > date) row++
    if (row === changed.length) break
    while (end < ended.length && ended[end] < row) end++
    if (ended[end] !== row) {
      day.push(date)
      rowOf.push(row)
    }
  }
  const scores = (from: number, to: number) => {
    if (from >= to) return []
    const values = read('platform_score', rowOf[from], rowOf[to - 1] + 1)
    return rowOf.slice(from, to).map((r) => values[r - rowOf[from]])
  }
  return { day, scores }
}

/** Account `idx`'s rank on each of `days` (0: none that day, or the day's ranks are not kept), one read. */
export function ranksOn(history: ScoreSeries, idx: number, buildDay: number, days: number[]): number[] {
  // the days kept per account, the build date first
  const kept = history.ranks.length / history.changes.accountIds.length
  const ranks = history.ranks.read(idx * kept, (idx + 1) * kept)
  return days.map((day) => ranks[buildDay - day] ?? 0)
}

/**
 * The days of account `idx`'s follower counts dated today or the previous `days - 1` days (any day after today
 * skipped), newest first, and `counts(from, to)`: the counts of days from..to-1.
 */
export function followerCounts(series: SeriesParts<'followers_count'>, idx: number, today: number, days: number) {
  const { day, read } = accountRows(series, idx, today - days + 1)
  const skip = rowsSince(day, today + 1)
  return { day: day.slice(skip), counts: (from: number, to: number) => read('followers_count', skip + from, skip + to) }
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
export function followersDiffBody(series: SeriesParts<'followers_count'>, idx: number, now: Date) {
  const today = utcDay(now)
  const { day, counts } = followerCounts(series, idx, today, 30)
  return windowsBody(day, counts(0, day.length), today, 0)
}

/** followersDiffBody over the stored scores (2 decimals): the scores of the scored dates, days without a score skipped. */
export function scoreDiffBody(history: ScoreSeries, idx: number, now: Date) {
  const today = utcDay(now)
  const { day, scores } = scoreDays(history, idx, today, 30)
  return windowsBody(day, scores(0, day.length), today, 2)
}

/** The diff body of a month's values `read` dated `day` (newest first). */
function windowsBody(day: ArrayLike<number>, read: ArrayLike<number | bigint>, today: number, decimals: number) {
  const scale = 10 ** decimals
  // the week's rows are leading rows of the month's
  const [week, month] = [7, 30].map((days) => {
    const n = rowsSince(day, today - days + 1)
    // `+ 0` turns a rounded -0 into 0
    const diff = n > 1 ? Math.round((Number(read[0]) - Number(read[n - 1])) * scale) / scale + 0 : 0
    const diff_str = diff > 0 ? `+${diff.toFixed(decimals)}` : diff < 0 ? diff.toFixed(decimals) : '0'
    return { date: n > 0 ? formatDay(day[n - 1]) : null, diff, diff_str }
  })
  return { success: true, today: formatDay(today), week, month }
}

/** The diff operations' response schema: `diff` is the schema of a window's difference, `pattern` its `diff_str`'s. */
export function diffResponse(diff: JsonSchema, pattern: string): JsonSchema {
  const window = object({ date: nullable(date()), diff, diff_str: string({ pattern }) })
  return object({ success: { const: true }, today: date(), week: window, month: window })
}
