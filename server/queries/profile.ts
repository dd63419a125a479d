/**
 * Renderings shared by several responses: the two tag/category reference shapes of the spec and the fields that
 * open an account's own profile.
 *
 * @example plainCategories(snapshot, idx) // [{ id: 1, name: 'Venture Capitals' }]
 * @example prefixedLabels(snapshot, idx).tags // [{ tag_id: 4, tag_name: 'DeFi' }]
 */
import { array, id, integer, nullable, prefixedCategory, prefixedTag, score, string } from '../openapi/schema.ts'
import type { AccountLabels, Reference, Snapshot } from '../snapshot/load.ts'

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

/** The schema of `prefixedLabels`' fields. */
export const PREFIXED_LABELS = { tags: array(prefixedTag()), categories: array(prefixedCategory()) }

/** `tags` and `categories` in the prefixed shape (they close the target's profile in several responses). */
export const prefixedLabels = (snapshot: Snapshot, idx: number) => ({
  tags: plainTags(snapshot, idx).map((t) => ({ tag_id: t.id, tag_name: t.name })),
  categories: plainCategories(snapshot, idx).map((c) => ({ category_id: c.id, category_name: c.name })),
})

/** The schema of `profileHead`'s fields. */
export const PROFILE_HEAD = {
  platform_id: id(),
  username: string(),
  name: nullable(string()),
  description: string(),
  profile_image: nullable(string()),
}

/** The fields that open an account's profile (get_platform_info, get_followers_score_sum, get_trending), in their order. */
export function profileHead({ accounts: a }: Snapshot, idx: number) {
  return {
    platform_id: a.platformId.at(idx),
    username: a.username.at(idx),
    name: a.name.at(idx),
    description: a.description.at(idx),
    profile_image: a.profileImage.at(idx),
  }
}

/** The schema of `scoreHead`'s fields. */
export const SCORE_HEAD = { success: { const: true }, platform_id: id(), username: string(), platform_score: score(), rank: nullable(integer({ minimum: 1 })) }

/** The fields that open a score answer (get_platform_score, get_score_explanation), in their order. */
export function scoreHead({ accounts: a }: Snapshot, idx: number) {
  return { success: true, platform_id: a.platformId.at(idx), username: a.username.at(idx), platform_score: a.platformScore[idx], rank: a.rank[idx] || null }
}
