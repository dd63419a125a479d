/**
 * A target's mention rows (snapshot/mentions.ts): newest first, found by time with a binary search, or put in another
 * order.
 *
 * @example const { from, to } = rowsInWindow(snapshot.mentions, target, startMs, endMs) // rows from..to-1
 * @example mentionRowsBy(snapshot, snapshot.mentions, target, 'favorites') // rows, most favorited first
 */
import type { Mentions, Snapshot } from '../snapshot/load.ts'

export type MentionValue = 'favorites' | 'retweets' | 'replies' | 'views' | 'score'

/** The target's rows created in [startMs, endMs] (inclusive, epoch milliseconds): rows `from .. to - 1`. */
export function rowsInWindow(mentions: Mentions, target: number, startMs: number, endMs: number): { from: number; to: number } {
  const first = mentions.offsets[target]
  const last = mentions.offsets[target + 1]
  return { from: firstAtOrBefore(mentions, first, last, endMs), to: firstAtOrBefore(mentions, first, last, startMs - 1) }
}

/** The first row of `first..last-1` (newest first) created at or before `ms`; `last` when none is. */
function firstAtOrBefore(mentions: Mentions, first: number, last: number, ms: number): number {
  let low = first
  let high = last
  while (low < high) {
    const mid = (low + high) >>> 1
    if (mentions.createdAtMs[mentions.tweetIdx[mid]] > ms) low = mid + 1
    else high = mid
  }
  return low
}

/** The target's rows ordered by a per-tweet value (an engagement counter or the author's score), descending, ties newest first. */
export function mentionRowsBy(snapshot: Snapshot, mentions: Mentions, target: number, by: MentionValue): number[] {
  const { tweets, accounts } = snapshot
  const value = (row: number) => {
    if (by !== 'score') return tweets[by][mentions.tweetIdx[row]]
    // authors outside the account table have no score: they rank below every score
    const author = mentions.authorIdx[row]
    return author >= 0 && accounts.isTracked[author] ? accounts.platformScore[author] : -1
  }
  const rows: { row: number; value: number }[] = []
  for (let row = mentions.offsets[target]; row < mentions.offsets[target + 1]; row++) rows.push({ row, value: value(row) })
  return rows.sort((x, y) => y.value - x.value || x.row - y.row).map(({ row }) => row)
}
