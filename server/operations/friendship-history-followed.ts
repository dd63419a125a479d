/**
 * GET /api/v1/friendshipHistory/followed — incoming follow log: smart accounts that followed or unfollowed the
 * target, newest first (key `data`).
 */
import { friendshipParameters, readFriendshipFilters } from '../params/friendship.ts'
import { defineOperation } from './define.ts'
import { plainCategories, plainTags } from '../queries/profile.ts'
import { resolveAccount } from '../params/account.ts'
import { countMatchingLabels } from '../queries/labels.ts'
import { formatDay } from '../params/dates.ts'
import { pagedBody, pageRows, readPage } from '../params/page.ts'
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
    const copiesOf = (r: number) => {
      if (day !== null && log.day[r] !== day) return 0
      const f = log.followerIdx[r]
      let copies = 1
      if (tagIds) copies *= countMatchingLabels(snapshot.accountTags, f, tagIds)
      if (categoryIds) copies *= countMatchingLabels(snapshot.accountCategories, f, categoryIds)
      return copies
    }
    const first = log.offsets[target]
    const filtered = day !== null || tagIds || categoryIds
    const { total, rows } = pageRows(request, log.offsets[target + 1] - first, (p) => first + p, filtered ? copiesOf : null)
    return pagedBody(request, total, 'data', rows.map((r) => event(snapshot, r)))
  },
})

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
