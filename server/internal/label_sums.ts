/**
 * get_followers_score_sum with category/tag filters: the score sum of the target's smart followers that have any of
 * the categories (when given) and any of the tags (when given).
 *
 * Two ways to the same answer:
 * - the scan: every smart follower of the target, its labels checked (random reads into per-account arrays:
 *   ~250 µs for the busiest targets at 1M accounts);
 * - the sums by label combination, for targets with at least `FROM_FOLLOWERS` smart followers, built on first use
 *   and kept per snapshot: the followers grouped by their categories 0..31 and tags 0..52 as bit masks (a tag mask
 *   is then one exact number), one score sum per group, so a filter adds the sums of the matching groups. A follower with a label id outside those
 *   ranges is kept apart and checked one by one. Sums of scores with 2 decimals round to the same value in any
 *   order.
 * Memory per kept target: 20 bytes per group + 4 per follower kept apart; no new target is kept once a snapshot's
 * sums hold `MAX_BYTES` (later targets are scanned).
 *
 * @example filteredScoreSum(snapshot, target, labelSet([1, 7]), null) // score sum of the VC or influencer followers
 */
import { hasAnyLabel, type LabelSet } from '../rules/labels.ts'
import type { AccountLabels, Snapshot } from '../snapshot/types.ts'

const FROM_FOLLOWERS = 4096
const MAX_BYTES = 32 * 2 ** 20

interface LabelSums {
  categories: Uint32Array
  tagsLow: Uint32Array
  tagsHigh: Uint32Array
  sums: Float64Array
  /** Followers with a label id outside the masks' ranges. */
  apart: Int32Array
}

export function filteredScoreSum(snapshot: Snapshot, target: number, categoryIds: LabelSet | null, tagIds: LabelSet | null): number {
  const { offsets } = snapshot.smartFollowers
  const kept = keptSums.get(snapshot)
  const usable = offsets[target + 1] - offsets[target] >= FROM_FOLLOWERS && (!kept || kept.sums.has(target) || kept.bytes < MAX_BYTES)
  return usable ? summedByLabels(snapshot, target, categoryIds, tagIds) : scannedScoreSum(snapshot, target, categoryIds, tagIds)
}

/** The scan (exported for tests). */
export function scannedScoreSum(snapshot: Snapshot, target: number, categoryIds: LabelSet | null, tagIds: LabelSet | null): number {
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

/** From the kept sums by label combination, built on first use (exported for tests: answers every target). */
export function summedByLabels(snapshot: Snapshot, target: number, categoryIds: LabelSet | null, tagIds: LabelSet | null): number {
  const sums = labelSums(snapshot, target)
  const categoryMask = categoryIds?.mask ?? 0
  let tagsLow = tagIds?.mask ?? 0
  let tagsHigh = 0
  for (const id of tagIds?.others ?? []) if (id >= 32 && id < 53) tagsHigh |= 1 << (id - 32)
  let sum = 0
  for (let g = 0; g < sums.sums.length; g++) {
    if (categoryIds && (sums.categories[g] & categoryMask) === 0) continue
    if (tagIds && (sums.tagsLow[g] & tagsLow) === 0 && (sums.tagsHigh[g] & tagsHigh) === 0) continue
    sum += sums.sums[g]
  }
  const { accountCategories, accountTags } = snapshot
  const scores = snapshot.accounts.platformScore
  for (const f of sums.apart) {
    if (categoryIds && !hasAnyLabel(accountCategories, f, categoryIds)) continue
    if (tagIds && !hasAnyLabel(accountTags, f, tagIds)) continue
    sum += scores[f]
  }
  return sum
}

const keptSums = new WeakMap<Snapshot, { sums: Map<number, LabelSums>; bytes: number }>()

function labelSums(snapshot: Snapshot, target: number): LabelSums {
  let kept = keptSums.get(snapshot)
  if (!kept) keptSums.set(snapshot, (kept = { sums: new Map(), bytes: 0 }))
  let sums = kept.sums.get(target)
  if (sums) return sums
  const { smartFollowers: sf, accountCategories, accountTags } = snapshot
  const scores = snapshot.accounts.platformScore
  // category mask → tag masks (low + high · 2^32, exact below 2^53) → group
  const groupOf = new Map<number, Map<number, number>>()
  const categories: number[] = []
  const tagsLow: number[] = []
  const tagsHigh: number[] = []
  const groupSums: number[] = []
  const apart: number[] = []
  for (let r = sf.offsets[target]; r < sf.offsets[target + 1]; r++) {
    const f = sf.followerIdx[r]
    const category = masks(accountCategories, f, 32)
    const tags = masks(accountTags, f, 53)
    if (!category || !tags) {
      apart.push(f)
      continue
    }
    let byTags = groupOf.get(category[0])
    if (!byTags) groupOf.set(category[0], (byTags = new Map()))
    const tagKey = tags[0] + tags[1] * 2 ** 32
    let g = byTags.get(tagKey)
    if (g === undefined) {
      byTags.set(tagKey, (g = groupSums.length))
      categories.push(category[0])
      tagsLow.push(tags[0])
      tagsHigh.push(tags[1])
      groupSums.push(0)
    }
    groupSums[g] += scores[f]
  }
  sums = {
    categories: Uint32Array.from(categories),
    tagsLow: Uint32Array.from(tagsLow),
    tagsHigh: Uint32Array.from(tagsHigh),
    sums: Float64Array.from(groupSums),
    apart: Int32Array.from(apart),
  }
  kept.sums.set(target, sums)
  kept.bytes += 20 * groupSums.length + 4 * apart.length
  return sums
}

/** The account's label ids as [bits 0..31, bits 32..63] when all are below `limit`, else null. */
function masks(labels: AccountLabels, idx: number, limit: 32 | 53): [number, number] | null {
  let low = 0
  let high = 0
  for (let r = labels.offsets[idx]; r < labels.offsets[idx + 1]; r++) {
    const id = labels.ids[r]
    if (id < 0 || id >= limit) return null
    if (id < 32) low |= 1 << id
    else high |= 1 << (id - 32)
  }
  return [low >>> 0, high >>> 0]
}
