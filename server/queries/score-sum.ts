/**
 * get_followers_score_sum: the score sum of the target's smart followers that have any of the categories (when
 * given) and any of the tags (when given), each follower counted once.
 *
 * @example followersScoreSum(snapshot, target, labelSet([1, 7]), null) // score sum of the VC or influencer followers
 */
import { hasAnyLabel, type LabelSet } from './labels.ts'
import type { Snapshot } from '../snapshot/types.ts'

export function followersScoreSum(snapshot: Snapshot, target: number, categoryIds: LabelSet | null, tagIds: LabelSet | null): number {
  const { smartFollowers: sf, accountCategories, accountTags } = snapshot
  const scores = snapshot.accounts.platformScore
  const end = sf.offsets[target + 1]
  let sum = 0
  for (let r = sf.offsets[target]; r < end; r++) {
    const f = sf.followerIdx[r]
    if (categoryIds && !hasAnyLabel(accountCategories, f, categoryIds)) continue
    if (tagIds && !hasAnyLabel(accountTags, f, tagIds)) continue
    sum += scores[f]
  }
  return sum
}
