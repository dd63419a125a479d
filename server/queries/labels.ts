/**
 * Tag and category matching on accounts (filters of get_followers, score sums, friendship logs, mentions).
 *
 * @example hasAnyLabel(snapshot.accountCategories, followerIdx, labelSet([1, 7])) // follower is a VC or an influencer
 */
import { readFilterId } from '../params/filters.ts'
import type { AccountLabels, Snapshot } from '../snapshot/load.ts'

function hasLabel(labels: AccountLabels, idx: number, id: number): boolean {
  if (id >= 0 && id < 32) return ((labels.mask[idx] >>> id) & 1) === 1
  for (let r = labels.offsets[idx]; r < labels.offsets[idx + 1]; r++) if (labels.ids[r] === id) return true
  return false
}

/** How many of the account's labels are in `ids` (labels are unique per account, so repeated ids count once). */
export function countMatchingLabels(labels: AccountLabels, idx: number, ids: readonly number[]): number {
  let matches = 0
  for (let r = labels.offsets[idx]; r < labels.offsets[idx + 1]; r++) if (ids.includes(labels.ids[r])) matches++
  return matches
}

/** Ids prepared for `hasAnyLabel`, which scans many rows: ids 0..31 as one bit mask, the others as a list. */
export interface LabelSet {
  mask: number
  others: number[]
}

export function labelSet(ids: readonly number[]): LabelSet {
  return { mask: bitsOf(ids, 0, 32), others: ids.filter((id) => !(id >= 0 && id < 32)) }
}

/** The bit mask of the ids in from..from+bits-1 (bit 0 = id `from`). */
export function bitsOf(ids: readonly number[], from: number, bits: number): number {
  let mask = 0
  for (const id of ids) if (id >= from && id < from + bits) mask |= 1 << (id - from)
  return mask
}

export function hasAnyLabel(labels: AccountLabels, idx: number, set: LabelSet): boolean {
  if ((labels.mask[idx] & set.mask) !== 0) return true
  for (const id of set.others) if (hasLabel(labels, idx, id)) return true
  return false
}

/** The account carries at least one tag of this tag-category. */
function hasTagInCategory(snapshot: Snapshot, idx: number, tagCategoryId: number): boolean {
  const { offsets, ids } = snapshot.accountTags
  for (let r = offsets[idx]; r < offsets[idx + 1]; r++) {
    if (snapshot.tagById.get(ids[r])?.tagCategoryId === tagCategoryId) return true
  }
  return false
}

/** The AND of the single-id filters that are set (null: not set) on an account, or null when none is. */
export function labelFilter(
  snapshot: Snapshot,
  categoryId: number | null,
  tagId: number | null,
  tagCategoryId: number | null = null,
): ((idx: number) => boolean) | null {
  if (categoryId === null && tagId === null && tagCategoryId === null) return null
  return (idx) =>
    (categoryId === null || hasLabel(snapshot.accountCategories, idx, categoryId)) &&
    (tagId === null || hasLabel(snapshot.accountTags, idx, tagId)) &&
    (tagCategoryId === null || hasTagInCategory(snapshot, idx, tagCategoryId))
}

/** `labelFilter` of the `category_id`, `tag_id` and `tag_category_id` parameters (non-numeric: `server_error`). */
export function readLabelFilter(query: URLSearchParams, snapshot: Snapshot): ((idx: number) => boolean) | null {
  const id = (name: string) => readFilterId(query, name, 'server_error')
  return labelFilter(snapshot, id('category_id'), id('tag_id'), id('tag_category_id'))
}
