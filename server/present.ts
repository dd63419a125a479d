/**
 * Renderings shared by several responses: the two tag/category reference shapes of the spec.
 *
 * @example plainCategories(snapshot, idx) // [{ id: 1, name: 'Venture Capitals' }]
 * @example prefixedTags(snapshot, idx) // [{ tag_id: 4, tag_name: 'DeFi' }]
 */
import type { AccountLabels, Reference, Snapshot } from './snapshot/types.ts'

function references(labels: AccountLabels, idx: number, byId: Map<number, Reference>): Reference[] {
  const out: Reference[] = []
  for (let r = labels.offsets[idx]; r < labels.offsets[idx + 1]; r++) {
    const ref = byId.get(labels.ids[r])
    if (ref) out.push({ id: ref.id, name: ref.name })
  }
  return out
}

export const plainTags = (snapshot: Snapshot, idx: number) => references(snapshot.accountTags, idx, snapshot.tagById)

export const plainCategories = (snapshot: Snapshot, idx: number) =>
  references(snapshot.accountCategories, idx, snapshot.categoryById)

export const prefixedTags = (snapshot: Snapshot, idx: number) =>
  plainTags(snapshot, idx).map((t) => ({ tag_id: t.id, tag_name: t.name }))

export const prefixedCategories = (snapshot: Snapshot, idx: number) =>
  plainCategories(snapshot, idx).map((c) => ({ category_id: c.id, category_name: c.name }))
