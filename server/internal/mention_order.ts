/**
 * A target's mention rows (of `mentions.parquet` or `smart_mentions.parquet`) ordered by a per-tweet value (an engagement counter or the author's score), descending,
 * ties in stored order (newest first). The snapshot stores mentions only by time, so other orders are sorted on
 * demand: O(n log n) in the target's mentions. Orders of targets with many mentions are kept per snapshot (they
 * are few, and a popular target is asked for repeatedly); small ones are cheaper to sort again than to keep.
 *
 * @example mentionRowsBy(snapshot, snapshot.mentions, target, 'favorites') // absolute mention rows, most favorited first
 */
import type { Mentions, Snapshot } from '../snapshot/types.ts'

export type MentionValue = 'favorites' | 'retweets' | 'replies' | 'views' | 'score'

/** Targets with at least this many mentions have their orders kept for the snapshot's lifetime. */
export const KEEP_FROM_ROWS = 512

/** Per mention table (each belongs to one snapshot). */
const kept = new WeakMap<Mentions, Map<string, Int32Array>>()

export function mentionRowsBy(snapshot: Snapshot, mentions: Mentions, target: number, by: MentionValue): Int32Array {
  const first = mentions.offsets[target]
  const count = mentions.offsets[target + 1] - first
  if (count < KEEP_FROM_ROWS) return sortRows(snapshot, mentions, first, count, by)
  let orders = kept.get(mentions)
  if (!orders) kept.set(mentions, (orders = new Map()))
  const key = `${target}:${by}`
  let rows = orders.get(key)
  if (!rows) orders.set(key, (rows = sortRows(snapshot, mentions, first, count, by)))
  return rows
}

function sortRows(snapshot: Snapshot, mentions: Mentions, first: number, count: number, by: MentionValue): Int32Array {
  const { tweets, accounts } = snapshot
  const values = new Float64Array(count)
  for (let p = 0; p < count; p++) {
    const t = mentions.tweetIdx[first + p]
    if (by === 'score') {
      // authors outside the account table have no score: they rank below every score
      const author = tweets.authorIdx[t]
      values[p] = author >= 0 && accounts.isTracked[author] ? accounts.platformScore[author] : -1
    } else {
      values[p] = tweets[by][t]
    }
  }
  const positions = new Int32Array(count)
  for (let p = 0; p < count; p++) positions[p] = p
  positions.sort((x, y) => values[y] - values[x] || x - y)
  for (let p = 0; p < count; p++) positions[p] += first
  return positions
}
