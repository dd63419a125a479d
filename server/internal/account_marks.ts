/**
 * Which accounts a pass over rows has counted, without a Set: `marks[idx] === stamp` once counted. Each pass takes a
 * new stamp (handlers run to the end without yielding, so one array per snapshot serves them all).
 *
 * @example const seen = accountMarks(snapshot); if (seen.marks[a] !== seen.stamp) { seen.marks[a] = seen.stamp; distinct++ }
 */
import type { Snapshot } from '../snapshot/types.ts'

const marksOf = new WeakMap<Snapshot, { marks: Int32Array; stamp: number }>()

export function accountMarks(snapshot: Snapshot): { marks: Int32Array; stamp: number } {
  let seen = marksOf.get(snapshot)
  if (!seen) marksOf.set(snapshot, (seen = { marks: new Int32Array(snapshot.accounts.platformId.length), stamp: 0 }))
  if (++seen.stamp === 2 ** 31 - 1) {
    seen.marks.fill(0)
    seen.stamp = 1
  }
  return seen
}
