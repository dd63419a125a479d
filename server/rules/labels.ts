/**
 * Tag and category matching on accounts (filters of get_followers, score sums, friendship logs, mentions).
 *
 * @example hasAnyLabel(snapshot.accountCategories, followerIdx, [1, 7]) // follower is a VC or an influencer
 */
import type { AccountLabels, Snapshot } from '../snapshot/types.ts'

export function hasLabel(labels: AccountLabels, idx: number, id: number): boolean {
  if (id >= 0 && id < 32) return ((labels.mask[idx] >>> id) & 1) === 1
  for (let r = labels.offsets[idx]; r < labels.offsets[idx + 1]; r++) if (labels.ids[r] === id) return true
  return false
}

export function hasAnyLabel(labels: AccountLabels, idx: number, ids: readonly number[]): boolean {
  for (const id of ids) if (hasLabel(labels, idx, id)) return true
  return false
}

/** The account carries at least one tag of this tag-category. */
export function hasTagInCategory(snapshot: Snapshot, idx: number, tagCategoryId: number): boolean {
  const { offsets, ids } = snapshot.accountTags
  for (let r = offsets[idx]; r < offsets[idx + 1]; r++) {
    if (snapshot.tagById.get(ids[r])?.tagCategoryId === tagCategoryId) return true
  }
  return false
}
