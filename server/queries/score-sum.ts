/**
 * get_followers_score_sum: the score sum of the target's smart followers that have any of the categories (when
 * given) and any of the tags (when given), each follower counted once. The target's rows are read as one range of
 * each stored column (follower score and label masks, see `SmartFollowers.followerLabels`), then summed in row order;
 * a follower with a label id outside the masks is checked on its labels.
 *
 * @example followersScoreSum(snapshot, target, [1, 7], null) // score sum of the VC or influencer followers
 */
import type { AccountLabels, Snapshot } from '../snapshot/load.ts'
import { bitsOf, countMatchingLabels } from './labels.ts'

/** Bit 31 of a category mask and of a high tag mask: the follower has a label id outside the masks' ranges. */
const OTHER_LABELS = 2 ** 31

/** A filter as the stored masks see it: the bits of its ids within their ranges, and whether it has others. */
interface MaskFilter {
  low: number
  high: number
  others: boolean
}

function maskFilter(ids: readonly number[], lowBits: number, highBits: number): MaskFilter {
  const inMasks = (id: number) => (id >= 0 && id < lowBits) || (id >= 32 && id < 32 + highBits)
  return { low: bitsOf(ids, 0, lowBits), high: bitsOf(ids, 32, highBits), others: !ids.every(inMasks) }
}

export function followersScoreSum(snapshot: Snapshot, target: number, categoryIds: number[] | null, tagIds: number[] | null): number {
  const sf = snapshot.smartFollowers
  const first = sf.offsets[target]
  const end = sf.offsets[target + 1]
  const scores = sf.followerScore.read(first, end)
  const categories = categoryIds && { filter: maskFilter(categoryIds, 31, 0), masks: sf.followerLabels.categories.read(first, end) }
  const tags = tagIds && {
    filter: maskFilter(tagIds, 32, 31),
    low: sf.followerLabels.tagsLow.read(first, end),
    high: sf.followerLabels.tagsHigh.read(first, end),
  }
  /** Whether the follower of row `r` (target-relative) has any of `ids`, when its masks cannot tell. */
  const exactly = (labels: AccountLabels, r: number, ids: readonly number[]) => countMatchingLabels(labels, sf.followerIdx[first + r], ids) > 0
  let sum = 0
  for (let r = 0; r < scores.length; r++) {
    if (categories) {
      const mask = categories.masks[r]
      const hit = (mask & categories.filter.low) !== 0
      if (!hit && !(categories.filter.others && mask >= OTHER_LABELS && exactly(snapshot.accountCategories, r, categoryIds!))) continue
    }
    if (tags) {
      const hit = (tags.low[r] & tags.filter.low) !== 0 || (tags.high[r] & tags.filter.high) !== 0
      if (!hit && !(tags.filter.others && tags.high[r] >= OTHER_LABELS && exactly(snapshot.accountTags, r, tagIds!))) continue
    }
    sum += scores[r]
  }
  return sum
}
