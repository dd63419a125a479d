/**
 * get_followers_score_sum with category/tag filters: the score sum of the target's smart followers that have any of
 * the categories (when given) and any of the tags (when given).
 *
 * Four ways to the same answer, the first that applies:
 * - category sums, for category filters on targets with at least `CATEGORY_SUMS_FROM` (256) smart followers: the
 *   followers grouped by their category ids 0..31 as a bit mask, one score sum per group (at the large scale: 8
 *   categories, at most 93 groups per target, 380k groups for the 9,715 targets, 4.4 MiB);
 * - label sums, for targets with at least `LABEL_SUMS_FROM` (4096) smart followers: grouped by categories 0..31 and
 *   tags 0..52 as bit masks (a tag mask is then one exact number). Labels spread over many combinations give about
 *   one group per follower (20 bytes each; the large scale's 289 targets take 30 MiB), still read in a tight loop;
 * - the stored rows (`readScoreSum`): each row's follower score and label masks stored by row in the serving
 *   sidecar, one read per column of the target's rows, then a pass in row order;
 * - the scan (`scannedScoreSum`, the reference the tests compare with): every smart follower's labels read from the
 *   per-account arrays, random reads (~250 µs for the busiest targets at 1M accounts).
 * In each kind of sums a follower with a label id outside the masks' ranges is kept apart and checked one by one.
 * Sums are built on first use or by the warm-up (`warm.ts`), kept per snapshot, and stop growing at their own budget
 * (`MAX_BYTES`: later targets take the next way). Sums of scores with 2 decimals round to the same value in any
 * order; the stored rows keep the scan's order, so their sum is the scan's to the last bit.
 *
 * @example filteredScoreSum(snapshot, target, labelSet([1, 7]), null) // score sum of the VC or influencer followers
 */
import { hasAnyLabel, type LabelSet } from './labels.ts'
import type { AccountLabels, Snapshot } from '../snapshot/types.ts'
import { busiestFirst } from '../internal/author_index.ts'

const CATEGORY_SUMS_FROM = 256
const LABEL_SUMS_FROM = 4096

/** One kind of sums: followers grouped by `categories` (and, with tags, `tagsLow`/`tagsHigh`) masks. */
interface GroupSums {
  categories: Uint32Array
  /** Empty for category sums. */
  tagsLow: Uint32Array
  tagsHigh: Uint32Array
  sums: Float64Array
  /** Followers with a label id outside the masks' ranges. */
  apart: Int32Array
}

interface SumsKind {
  name: string
  withTags: boolean
  fromFollowers: number
  maxBytes: number
}

const CATEGORY_SUMS: SumsKind = { name: 'category_sums', withTags: false, fromFollowers: CATEGORY_SUMS_FROM, maxBytes: 16 * 2 ** 20 }
const LABEL_SUMS: SumsKind = { name: 'label_sums', withTags: true, fromFollowers: LABEL_SUMS_FROM, maxBytes: 32 * 2 ** 20 }

export function filteredScoreSum(snapshot: Snapshot, target: number, categoryIds: LabelSet | null, tagIds: LabelSet | null): number {
  if (!tagIds && usable(snapshot, CATEGORY_SUMS, target)) return summed(snapshot, CATEGORY_SUMS, target, categoryIds, null)
  if (usable(snapshot, LABEL_SUMS, target)) return summed(snapshot, LABEL_SUMS, target, categoryIds, tagIds)
  return readScoreSum(snapshot, target, categoryIds, tagIds)
}

/** From the kept category sums, built when missing (exported for tests: answers every target). */
export function summedByCategories(snapshot: Snapshot, target: number, categoryIds: LabelSet): number {
  return summed(snapshot, CATEGORY_SUMS, target, categoryIds, null)
}

/** From the kept label sums, built when missing (exported for tests: answers every target). */
export function summedByLabels(snapshot: Snapshot, target: number, categoryIds: LabelSet | null, tagIds: LabelSet | null): number {
  return summed(snapshot, LABEL_SUMS, target, categoryIds, tagIds)
}

/** The scan (exported for tests: the reference). */
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

/** Bit 31 of a row's `tagsHigh` mask: its follower has a category id outside 0..31 or a tag id outside 0..62. */
const OTHER_LABELS = 2 ** 31

/** Reused between requests (grown to the largest target read so far). */
let scratch = newScratch(1024)
function newScratch(size: number) {
  return { scores: new Float64Array(size), categories: new Uint32Array(size), tagsLow: new Uint32Array(size), tagsHigh: new Uint32Array(size) }
}

/** From the stored rows (exported for tests: answers every target). */
export function readScoreSum(snapshot: Snapshot, target: number, categoryIds: LabelSet | null, tagIds: LabelSet | null): number {
  const { smartFollowers: sf, accountCategories, accountTags } = snapshot
  const first = sf.offsets[target]
  const end = sf.offsets[target + 1]
  const count = end - first
  if (count === 0) return 0
  if (scratch.scores.length < count) scratch = newScratch(2 ** Math.ceil(Math.log2(count)))
  const labels = sf.followerLabels
  const scores = labels.score.readInto(first, end, scratch.scores)
  const tagsHigh = labels.tagsHigh.readInto(first, end, scratch.tagsHigh)
  const categories = categoryIds && labels.categories.readInto(first, end, scratch.categories)
  const tagsLow = tagIds && labels.tagsLow.readInto(first, end, scratch.tagsLow)
  const categoryMask = categoryIds?.mask ?? 0
  const tagMask = tagIds?.mask ?? 0
  let tagHighMask = 0
  for (const id of tagIds?.others ?? []) if (id >= 32 && id < 63) tagHighMask |= 1 << (id - 32)
  let sum = 0
  for (let i = 0; i < count; i++) {
    if ((tagsHigh[i] & OTHER_LABELS) !== 0) {
      const f = sf.followerIdx[first + i]
      if (categoryIds && !hasAnyLabel(accountCategories, f, categoryIds)) continue
      if (tagIds && !hasAnyLabel(accountTags, f, tagIds)) continue
    } else {
      if (categories && (categories[i] & categoryMask) === 0) continue
      if (tagsLow && (tagsLow[i] & tagMask) === 0 && (tagsHigh[i] & tagHighMask) === 0) continue
    }
    sum += scores[i]
  }
  return sum
}

/** The warm-up's parts: each kind's targets, most followers first, built ahead of requests within its budget. */
export const scoreSumWarmers = [CATEGORY_SUMS, LABEL_SUMS].map((kind) => ({
  name: kind.name,
  targets: (snapshot: Snapshot) => busiestFirst(snapshot.smartFollowers.offsets, kind.fromFollowers),
  build(snapshot: Snapshot, target: number): boolean {
    if (!usable(snapshot, kind, target)) return false
    groupSums(snapshot, kind, target)
    return true
  },
}))

const kept = new WeakMap<Snapshot, Map<SumsKind, { sums: Map<number, GroupSums>; bytes: number }>>()

function keptOf(snapshot: Snapshot, kind: SumsKind) {
  let kinds = kept.get(snapshot)
  if (!kinds) kept.set(snapshot, (kinds = new Map()))
  let store = kinds.get(kind)
  if (!store) kinds.set(kind, (store = { sums: new Map(), bytes: 0 }))
  return store
}

/** The target has enough followers for the kind, and its sums are kept or the budget has room. */
function usable(snapshot: Snapshot, kind: SumsKind, target: number): boolean {
  const { offsets } = snapshot.smartFollowers
  if (offsets[target + 1] - offsets[target] < kind.fromFollowers) return false
  const store = keptOf(snapshot, kind)
  return store.sums.has(target) || store.bytes < kind.maxBytes
}

function summed(snapshot: Snapshot, kind: SumsKind, target: number, categoryIds: LabelSet | null, tagIds: LabelSet | null): number {
  const sums = groupSums(snapshot, kind, target)
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

function groupSums(snapshot: Snapshot, kind: SumsKind, target: number): GroupSums {
  const store = keptOf(snapshot, kind)
  let sums = store.sums.get(target)
  if (sums) return sums
  const { smartFollowers: sf, accountCategories, accountTags } = snapshot
  const scores = snapshot.accounts.platformScore
  // category mask → tag masks (low + high · 2^32, exact below 2^53; 0 without tags) → group
  const groupOf = new Map<number, Map<number, number>>()
  const categories: number[] = []
  const tagsLow: number[] = []
  const tagsHigh: number[] = []
  const groupSums: number[] = []
  const apart: number[] = []
  for (let r = sf.offsets[target]; r < sf.offsets[target + 1]; r++) {
    const f = sf.followerIdx[r]
    const category = masks(accountCategories, f, 32)
    const tags = kind.withTags ? masks(accountTags, f, 53) : NO_TAGS
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
    tagsLow: kind.withTags ? Uint32Array.from(tagsLow) : EMPTY,
    tagsHigh: kind.withTags ? Uint32Array.from(tagsHigh) : EMPTY,
    sums: Float64Array.from(groupSums),
    apart: Int32Array.from(apart),
  }
  store.sums.set(target, sums)
  store.bytes += (kind.withTags ? 20 : 12) * groupSums.length + 4 * apart.length
  return sums
}

const NO_TAGS: [number, number] = [0, 0]
const EMPTY = new Uint32Array(0)

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
