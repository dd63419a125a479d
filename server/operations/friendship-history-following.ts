/**
 * GET /api/v1/friendshipHistory/following — outgoing follow log: tracked accounts the target followed or unfollowed,
 * ordered by action (`Following` first) then platform_id compared as a string, not by date (key `data`).
 */
import { friendshipParameters, readFriendshipFilters } from '../params/friendship.ts'
import { defineOperation } from './define.ts'
import { plainCategories, plainTags } from '../queries/profile.ts'
import { resolveAccount } from '../params/account.ts'
import { hasAnyLabel, labelSet } from '../queries/labels.ts'
import { formatDay } from '../params/dates.ts'
import { pagedBody, pageRows, readPage } from '../params/page.ts'
import type { Snapshot } from '../snapshot/load.ts'
import { array, date, envelope, id, integer, object, plainReference, score, string } from '../openapi/schema.ts'

/** `profile_image_url` of a followed account without a stored image (documented in docs/api.md). */
export const PLACEHOLDER_PROFILE_IMAGE_URL = 'https://platform.example/images/default_profile.png'

export default defineOperation({
  name: 'friendshipHistory/following',
  groups: ['History'],
  summary:
    'Outgoing follow log: tracked accounts the target followed or unfollowed, ordered by action (`Following` before `Unfollowing`) then platform_id compared as a string. Filters apply to the followed account; while one is set, accounts without tags (categories) are excluded.',
  parameters: friendshipParameters('followed account'),
  response: envelope(
    'data',
    object({
      action: string({ enum: ['Following', 'Unfollowing'] }),
      platform_id: id(),
      username: string(),
      name: string(),
      description: string(),
      platform_score: score(),
      followers_count: integer(),
      profile_image_url: string(),
      created_at: date(),
      tags: array(plainReference()),
      categories: array(plainReference()),
    }),
  ),
  cache: 'default',
  handle({ query, snapshot }) {
    const source = resolveAccount(snapshot, query, 'precedence')
    const filters = readFriendshipFilters(query)
    const { day } = filters
    const tagIds = filters.tagIds && labelSet(filters.tagIds)
    const categoryIds = filters.categoryIds && labelSet(filters.categoryIds)
    const request = readPage(query, 'friendshipHistory')
    const log = snapshot.friendshipFollowing
    // the log is stored in the served order; with a filter the whole history is filtered, then paginated
    const first = log.offsets[source]
    const keep =
      day === null && !tagIds && !categoryIds
        ? null
        : (r: number) => {
            const f = log.followedIdx[r]
            if (day !== null && log.day[r] !== day) return false
            if (tagIds && !hasAnyLabel(snapshot.accountTags, f, tagIds)) return false
            return !categoryIds || hasAnyLabel(snapshot.accountCategories, f, categoryIds)
          }
    const { total, rows } = pageRows(request, log.offsets[source + 1] - first, (p) => first + p, keep)
    return pagedBody(request, total, 'data', rows.map((r) => event(snapshot, r)))
  },
})

function event(snapshot: Snapshot, r: number) {
  const a = snapshot.accounts
  const log = snapshot.friendshipFollowing
  const f = log.followedIdx[r]
  return {
    action: log.following[r] ? 'Following' : 'Unfollowing',
    platform_id: a.platformId.at(f),
    username: a.username.at(f),
    name: a.name.at(f) as string,
    description: a.description.at(f),
    platform_score: log.platformScore[r],
    followers_count: a.followersCount[f],
    profile_image_url: a.profileImage.at(f) ?? PLACEHOLDER_PROFILE_IMAGE_URL,
    created_at: formatDay(log.day[r]),
    tags: plainTags(snapshot, f),
    categories: plainCategories(snapshot, f),
  }
}
