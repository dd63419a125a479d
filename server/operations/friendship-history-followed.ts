/**
 * GET /api/v1/friendshipHistory/followed — incoming follow log: smart accounts that followed or unfollowed the
 * target, newest first (key `data`).
 */
import { countMatchingLabels, friendshipParameters, readFriendshipFilters } from '../queries/friendship.ts'
import { defineOperation } from './define.ts'
import { plainCategories, plainTags } from '../queries/profile.ts'
import { resolveAccount } from '../params/account.ts'
import { formatDay } from '../params/dates.ts'
import { pagedBody, type PageRequest, pageRows, readPage } from '../params/page.ts'
import { array, date, envelope, id, integer, nullable, object, plainReference, score, string } from '../openapi/schema.ts'
import type { Snapshot } from '../snapshot/load.ts'

export default defineOperation({
  name: 'friendshipHistory/followed',
  groups: ['History'],
  summary:
    'Incoming follow log: smart accounts (monitored, active, not suspended) that followed or unfollowed the target, newest first. A follower matching several filter ids appears once per matching id, and `total` counts those rows.',
  parameters: friendshipParameters('follower'),
  response: envelope(
    'data',
    object({
      action: string({ enum: ['Followed', 'Unfollowed'] }),
      platform_id: id(),
      username: string(),
      name: string(),
      platform_score: score(),
      followers_count: integer(),
      description: string(),
      profile_image: nullable(string()),
      tags: array(plainReference()),
      categories: array(plainReference()),
      created_at: date(),
    }),
  ),
  cache: 'default',
  handle({ query, snapshot }) {
    const target = resolveAccount(snapshot, query, 'precedence')
    const { day, tagIds, categoryIds } = readFriendshipFilters(query)
    const request = readPage(query, 'friendshipHistory')
    const log = snapshot.friendshipFollowed
    // the log is stored newest first; a follower matching several filter ids yields one row per matching id (a
    // join with the label tables), so each event counts `copies` times in `total` and in the pages
    const first = log.offsets[target]
    const count = log.offsets[target + 1] - first
    const { total, rows } =
      tagIds || categoryIds
        ? joinedPage(snapshot, request, first, count, day, tagIds, categoryIds)
        : pageRows(request, count, (p) => first + p, day === null ? null : (r) => log.day[r] === day)
    return pagedBody(request, total, 'data', rows.map((r) => event(snapshot, r)))
  },
})

/** The page and total with label filters: each event once per matching (tag, category) of its follower. */
function joinedPage(
  snapshot: Snapshot,
  request: PageRequest,
  first: number,
  count: number,
  day: number | null,
  tagIds: number[] | null,
  categoryIds: number[] | null,
): { total: number; rows: number[] } {
  const log = snapshot.friendshipFollowed
  const skip = (request.page - 1) * request.size
  let total = 0
  const rows: number[] = []
  for (let r = first; r < first + count; r++) {
    if (day !== null && log.day[r] !== day) continue
    const f = log.followerIdx[r]
    let copies = 1
    if (tagIds) copies *= countMatchingLabels(snapshot.accountTags, f, tagIds)
    if (categoryIds) copies *= countMatchingLabels(snapshot.accountCategories, f, categoryIds)
    for (let c = 0; c < copies; c++, total++) if (total >= skip && rows.length < request.size) rows.push(r)
  }
  return { total, rows }
}

/** One row of the log: the event and its follower. */
function event(snapshot: Snapshot, r: number) {
  const a = snapshot.accounts
  const log = snapshot.friendshipFollowed
  const f = log.followerIdx[r]
  return {
    action: log.followed[r] ? 'Followed' : 'Unfollowed',
    platform_id: a.platformId.at(f),
    username: a.username.at(f),
    name: a.name.at(f) ?? '',
    platform_score: a.platformScore[f],
    followers_count: a.followersCount[f],
    description: a.description.at(f),
    profile_image: a.profileImage.at(f),
    tags: plainTags(snapshot, f),
    categories: plainCategories(snapshot, f),
    created_at: formatDay(log.day[r]),
  }
}
