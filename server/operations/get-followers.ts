/** GET /api/v1/get_followers — the target's smart followers, sorted and filtered, paginated (key `top_followers`). */
import { defineOperation } from './define.ts'
import { plainCategories, plainTags } from '../queries/profile.ts'
import { accountParameters, resolveAccount } from '../params/account.ts'
import { filterParameter } from '../params/filters.ts'
import { readLabelFilter } from '../queries/labels.ts'
import { isoUtcMillis } from '../params/dates.ts'
import { pagedBody, pageParameters, pageRows, readPage } from '../params/page.ts'
import { byParameter, readAscending, readBy, sortParameter } from '../params/sort.ts'
import type { Snapshot } from '../snapshot/load.ts'
import { array, envelope, id, integer, nullable, object, plainReference, score, string } from '../openapi/schema.ts'

/** A smart follower's row (also `get_platform_top_followers`'s). */
export const FOLLOWER_ROW = object({
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
})

/** Order of the values in the spec's failure message. */
const FOLLOWERS_BY = ['followers', 'score', 'subscribed_at'] as const

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
  response: envelope('top_followers', FOLLOWER_ROW),
  cache: 'default',
  handle({ query, snapshot }) {
    const target = resolveAccount(snapshot, query, 'fallback')
    const by = readBy(query, FOLLOWERS_BY, 'score')
    const ascending = readAscending(query)
    const keep = readLabelFilter(query, snapshot)
    const request = readPage(query, 'get_followers')
    const sf = snapshot.smartFollowers
    const first = sf.offsets[target]
    const count = sf.offsets[target + 1] - first
    // rows are stored by score desc; the other orders list the rows by position; ascending reads backwards
    const order = by === 'score' ? null : by === 'followers' ? sf.byFollowers : sf.bySubscribed
    const { total, rows } = pageRows(
      request,
      count,
      (p) => {
        const position = first + (ascending ? count - 1 - p : p)
        return order ? order[position] : position
      },
      keep && ((row) => keep(sf.followerIdx[row])),
    )
    const followers = rows.map((r) => follower(snapshot, sf.followerIdx[r], sf.subscribedAtMs[r]))
    return pagedBody(request, total, 'top_followers', followers)
  },
})

/** A smart follower's row. */
function follower(snapshot: Snapshot, f: number, subscribedAtMs: number) {
  const a = snapshot.accounts
  return {
    platform_id: a.platformId.at(f),
    username: a.username.at(f),
    name: a.name.at(f) ?? '',
    description: a.description.at(f),
    platform_score: a.platformScore[f],
    followers_count: a.followersCount[f],
    profile_image: a.profileImage.at(f),
    tags: plainTags(snapshot, f),
    categories: plainCategories(snapshot, f),
    subscribed_at: isoUtcMillis(subscribedAtMs),
  }
}
