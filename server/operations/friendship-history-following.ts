/**
 * GET /api/v1/friendshipHistory/following — outgoing follow log: tracked accounts the target followed or unfollowed,
 * ordered by action (`Following` first) then platform_id compared as a string, not by date (key `data`).
 */
import { friendshipParameters, readFriendshipFilters } from '../queries/friendship.ts'
import { bytesOf, memberMemo } from '../json.ts'
import { defineOperation } from './define.ts'
import { plainCategories, plainTags } from '../queries/profile.ts'
import { resolveAccount } from '../params/account.ts'
import { hasAnyLabel, labelSet } from '../queries/labels.ts'
import { endPage, pageRows, pageWriter, readPage } from '../params/page.ts'
import type { Snapshot } from '../snapshot/types.ts'
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
    // the followed account's parts are JSON kept per snapshot; the row's own values go between them
    const followed = rows.map((r) => log.followedIdx[r])
    const heads = memberMemo(snapshot, 'following-log.head').list(followed, (f) => followedHead(snapshot, f))
    const images = memberMemo(snapshot, 'following-log.image').list(followed, (f) => followedImage(snapshot, f))
    const labels = memberMemo(snapshot, 'following-log.labels').list(followed, (f) => ({
      tags: plainTags(snapshot, f),
      categories: plainCategories(snapshot, f),
    }))
    const out = pageWriter(request, total, 'data', rows.length, bytesOf(heads) + bytesOf(images) + bytesOf(labels) + 96 * rows.length)
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]
      out.item()
      out.text(log.following[r] ? '{"action":"Following",' : '{"action":"Unfollowing",')
      out.bytes(heads[i])
      out.text(',"platform_score":')
      out.number(log.platformScore[r])
      out.text(',')
      out.bytes(images[i])
      out.text(',"created_at":"')
      out.day(log.day[r])
      out.text('",')
      out.bytes(labels[i])
      out.text('}')
    }
    return endPage(out)
  },
})

/** The followed account's members before `platform_score` (the log row's score). */
function followedHead(snapshot: Snapshot, f: number) {
  const a = snapshot.accounts
  return { platform_id: a.platformId[f], username: a.username[f], name: a.name[f] as string, description: a.description.at(f) }
}

/** The followed account's members between `platform_score` and `created_at`. */
function followedImage(snapshot: Snapshot, f: number) {
  const a = snapshot.accounts
  return { followers_count: a.followersCount[f], profile_image_url: a.profileImage.at(f) ?? PLACEHOLDER_PROFILE_IMAGE_URL }
}
