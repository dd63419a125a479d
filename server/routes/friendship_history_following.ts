/**
 * GET /api/v1/friendshipHistory/following — outgoing follow log: tracked accounts the target followed or unfollowed,
 * ordered by action (`Following` first) then platform_id compared as a string, not by date (key `data`).
 */
import { friendshipParameters, readFriendshipFilters } from '../internal/friendship.ts'
import { defineOperation } from '../operation.ts'
import { plainCategories, plainTags } from '../present.ts'
import { resolveAccount } from '../rules/account.ts'
import { formatDay } from '../rules/dates.ts'
import { hasAnyLabel, labelSet } from '../rules/labels.ts'
import { pagedBody, readPage } from '../rules/pagination.ts'
import { array, date, envelope, id, integer, object, plainReference, score, string } from '../schema.ts'

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
    // the log is stored in the served order; the whole history is filtered, then paginated
    const skip = (request.page - 1) * request.size
    let total = 0
    const rows: number[] = []
    for (let r = log.offsets[source]; r < log.offsets[source + 1]; r++) {
      const f = log.followedIdx[r]
      if (day !== null && log.day[r] !== day) continue
      if (tagIds && !hasAnyLabel(snapshot.accountTags, f, tagIds)) continue
      if (categoryIds && !hasAnyLabel(snapshot.accountCategories, f, categoryIds)) continue
      if (total >= skip && rows.length < request.size) rows.push(r)
      total++
    }
    const a = snapshot.accounts
    const items = rows.map((r) => {
      const f = log.followedIdx[r]
      return {
        action: log.following[r] ? 'Following' : 'Unfollowing',
        platform_id: a.platformId[f],
        username: a.username[f],
        name: a.name[f] as string,
        description: a.description[f],
        platform_score: log.platformScore[r],
        followers_count: a.followersCount[f],
        profile_image_url: a.profileImage[f] ?? PLACEHOLDER_PROFILE_IMAGE_URL,
        created_at: formatDay(log.day[r]),
        tags: plainTags(snapshot, f),
        categories: plainCategories(snapshot, f),
      }
    })
    return pagedBody(request, total, 'data', items)
  },
})
