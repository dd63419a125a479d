/** GET /api/v1/get_followers — the target's smart followers, sorted and filtered, paginated (key `top_followers`). */
import { bytesOf, memberMemo } from '../json.ts'
import { defineOperation, type OperationContext } from './define.ts'
import { plainCategories, plainTags } from '../queries/profile.ts'
import { accountParameters, resolveAccount } from '../params/account.ts'
import { filterParameter, readFilterId } from '../params/filters.ts'
import { hasLabel, hasTagInCategory } from '../queries/labels.ts'
import { endPage, pageParameters, pageRows, pageWriter, readPage } from '../params/page.ts'
import { byParameter, readAscending, readBy, sortParameter } from '../params/sort.ts'
import type { Snapshot } from '../snapshot/types.ts'
import { array, envelope, id, integer, nullable, object, plainReference, score, string } from '../openapi/schema.ts'

/** Order of the values in the spec's failure message. */
export const FOLLOWERS_BY = ['followers', 'score', 'subscribed_at'] as const

export default defineOperation({
  name: 'get_followers',
  groups: ['Followers'],
  summary: 'Smart followers of the target (monitored, active, not suspended, with an active follow).',
  parameters: [
    ...accountParameters('fallback'),
    byParameter(FOLLOWERS_BY, 'score', 'Sort column: follower score, follower count or first-recorded follow time.'),
    sortParameter,
    filterParameter('category_id', 'Keeps followers with this category.', 'server_error'),
    filterParameter('tag_id', 'Keeps followers with this tag.', 'server_error'),
    filterParameter('tag_category_id', 'Keeps followers with at least one tag in this tag-category.', 'server_error'),
    ...pageParameters('get_followers'),
  ],
  response: envelope(
    'top_followers',
    object({
      platform_id: id(),
      username: string(),
      name: string(),
      description: string(),
      platform_score: score(),
      followers_count: integer(),
      profile_image: nullable(string()),
      tags: array(plainReference()),
      categories: array(plainReference()),
      subscribed_at: string({ format: 'date-time', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' }),
    }),
  ),
  cache: 'default',
  handle({ query, snapshot }) {
    const target = resolveAccount(snapshot, query, 'fallback')
    const by = readBy(query, FOLLOWERS_BY, 'score')
    const ascending = readAscending(query)
    const keep = followerFilter({ query, snapshot })
    const request = readPage(query, 'get_followers')
    const sf = snapshot.smartFollowers
    const first = sf.offsets[target]
    const count = sf.offsets[target + 1] - first
    // rows are stored by score desc; the followers and `subscribed_at` of the other orders are stored on disk at
    // their positions; ascending reads backwards. A page is a few positions (consecutive without a filter): one
    // read per column in every order. A filter checks every follower: the target's followers in that order are
    // read at once
    const inOrder = by === 'score' ? null : sf.followerIdxBy[by]
    const all = keep && inOrder ? inOrder.read(first, first + count) : null
    const { total, rows: positions } = pageRows(
      request,
      count,
      (p) => first + (ascending ? count - 1 - p : p),
      keep && ((position) => keep(all ? all[position - first] : sf.followerIdx[position])),
    )
    const followers = all
      ? positions.map((position) => all[position - first])
      : inOrder
        ? inOrder.readRows(positions)
        : positions.map((position) => sf.followerIdx[position])
    const subscribedAtMs = sf.subscribedAtMs[by].readRows(positions)
    const parts = memberMemo(snapshot, 'follower').list(followers, (f) => follower(snapshot, f))
    const out = pageWriter(request, total, 'top_followers', parts.length, bytesOf(parts) + 48 * parts.length)
    for (let i = 0; i < parts.length; i++) {
      out.item()
      out.text('{')
      out.bytes(parts[i])
      out.text(',"subscribed_at":"')
      out.isoUtcMillis(subscribedAtMs[i])
      out.text('"}')
    }
    return endPage(out)
  },
})

/** A row's account part (`subscribed_at` follows it). */
function follower(snapshot: Snapshot, f: number) {
  const a = snapshot.accounts
  return {
    platform_id: a.platformId[f],
    username: a.username[f],
    name: a.name[f] ?? '',
    description: a.description.at(f),
    platform_score: a.platformScore[f],
    followers_count: a.followersCount[f],
    profile_image: a.profileImage.at(f),
    tags: plainTags(snapshot, f),
    categories: plainCategories(snapshot, f),
  }
}

/** The AND of the follower filters, or null when none is set. */
function followerFilter({ query, snapshot }: Pick<OperationContext, 'query' | 'snapshot'>) {
  const categoryId = readFilterId(query, 'category_id', 'server_error')
  const tagId = readFilterId(query, 'tag_id', 'server_error')
  const tagCategoryId = readFilterId(query, 'tag_category_id', 'server_error')
  if (categoryId === null && tagId === null && tagCategoryId === null) return null
  return (f: number) =>
    (categoryId === null || hasLabel(snapshot.accountCategories, f, categoryId)) &&
    (tagId === null || hasLabel(snapshot.accountTags, f, tagId)) &&
    (tagCategoryId === null || hasTagInCategory(snapshot, f, tagCategoryId))
}
