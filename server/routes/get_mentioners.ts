/**
 * GET /api/v1/get_mentioners — distinct tracked accounts that mentioned the target within a window (rolling `days`
 * or an inclusive UTC date range), with the target's profile and the window echoed (key `mentioners`).
 */
import { firstInOrder } from '../internal/first_in_order.ts'
import { snapshotMembers } from '../internal/json_parts.ts'
import { defineOperation } from '../operation.ts'
import { prefixedLabels } from '../present.ts'
import { accountParameters, resolveAccount } from '../rules/account.ts'
import { filterParameter, readFilterId } from '../rules/filters.ts'
import { hasLabel } from '../rules/labels.ts'
import { pagedJson, pageParameters, pageRange, readPage } from '../rules/pagination.ts'
import { byParameter, readAscending, readBy, sortParameter } from '../rules/sort.ts'
import { mentionWindowParameters, readMentionWindow } from '../rules/windows.ts'
import {
  array,
  boolean,
  date,
  envelope,
  id,
  integer,
  nullable,
  object,
  prefixedCategory,
  prefixedTag,
  score,
  string,
} from '../schema.ts'
import type { Snapshot } from '../snapshot/types.ts'

/** Order of the values in the spec's failure message. */
export const MENTIONERS_BY = ['score', 'followers'] as const

const targetProfile = {
  platform_id: id(),
  username: string(),
  name: nullable(string()),
  description: string(),
  followers_count: integer(),
  profile_image: nullable(string()),
  tags: array(prefixedTag()),
  categories: array(prefixedCategory()),
}

const mentionerRow = object({
  platform_id: id(),
  username: string(),
  name: nullable(string()),
  profile_image: nullable(string()),
  blue_verified: boolean(),
  platform_score: score(),
  followers_count: integer(),
})

export default defineOperation({
  name: 'get_mentioners',
  groups: ['Mentions'],
  summary:
    'Distinct tracked accounts that authored at least one stored tweet mentioning the target within the window; the target is never its own mentioner.',
  parameters: [
    ...accountParameters('fallback'),
    ...mentionWindowParameters,
    byParameter(MENTIONERS_BY, 'score', 'Sort column: mentioner score or follower count.'),
    sortParameter,
    filterParameter('tag_id', 'Keeps mentioners carrying this tag (AND with `category_id`).', 'ignore'),
    filterParameter('category_id', 'Keeps mentioners carrying this category (AND with `tag_id`).', 'ignore'),
    ...pageParameters('get_mentioners'),
  ],
  response: {
    // the echo is `days` without a date range, `date_from` + `date_to` with one
    oneOf: [
      envelope('mentioners', mentionerRow, { ...targetProfile, days: integer({ enum: [1, 7, 30] }) }),
      envelope('mentioners', mentionerRow, { ...targetProfile, date_from: date(), date_to: date() }),
    ],
  },
  cache: 'default',
  handle({ query, snapshot, now }) {
    const target = resolveAccount(snapshot, query, 'fallback')
    const window = readMentionWindow(query, now)
    const by = readBy(query, MENTIONERS_BY, 'score')
    const ascending = readAscending(query)
    const tagId = readFilterId(query, 'tag_id', 'ignore')
    const categoryId = readFilterId(query, 'category_id', 'ignore')
    const request = readPage(query, 'get_mentioners')
    const { mentions, tweets, accounts: a } = snapshot
    // the target's mentions are newest first: skip those after the window, stop at the first one before it
    const seen = authorMarks(snapshot)
    const authors: number[] = []
    for (let r = mentions.offsets[target]; r < mentions.offsets[target + 1]; r++) {
      const ms = mentions.epochSeconds[r] * 1000
      if (ms > window.endMs) continue
      if (ms < window.startMs) break
      const author = tweets.authorIdx[mentions.tweetIdx[r]]
      if (author < 0 || !a.isTracked[author]) continue
      if (tagId !== null && !hasLabel(snapshot.accountTags, author, tagId)) continue
      if (categoryId !== null && !hasLabel(snapshot.accountCategories, author, categoryId)) continue
      if (seen.marks[author] === seen.stamp) continue
      seen.marks[author] = seen.stamp
      authors.push(author)
    }
    // descending by the column, ties by platform_id ascending (= account_idx); ascending is that order reversed.
    // Only the rows up to the requested page are put in order.
    const value = by === 'score' ? a.platformScore : a.followersCount
    const descending = (x: number, y: number) => value[y] - value[x] || x - y
    const { start, end } = pageRange(request, authors.length)
    const page = firstInOrder(authors, end, ascending ? (x, y) => descending(y, x) : descending).slice(start)
    const items = page.map((m) => ['{', snapshotMembers(snapshot, 'mentioner', m, (idx) => mentioner(snapshot, idx)), '}'])
    return pagedJson(request, authors.length, 'mentioners', items, {
      platform_id: a.platformId[target],
      username: a.username[target],
      name: a.name[target],
      description: a.description[target],
      followers_count: a.followersCount[target],
      profile_image: a.profileImage[target],
      ...prefixedLabels(snapshot, target),
      ...window.echo,
    })
  },
})

/**
 * Which authors a request has counted, without a Set: `marks[author] === stamp` once counted. Each request takes a
 * new stamp (handlers run to the end without yielding, so one array per snapshot serves them all).
 */
const marksOf = new WeakMap<Snapshot, { marks: Int32Array; stamp: number }>()
function authorMarks(snapshot: Snapshot): { marks: Int32Array; stamp: number } {
  let seen = marksOf.get(snapshot)
  if (!seen) marksOf.set(snapshot, (seen = { marks: new Int32Array(snapshot.accounts.platformId.length), stamp: 0 }))
  if (++seen.stamp === 2 ** 31 - 1) {
    seen.marks.fill(0)
    seen.stamp = 1
  }
  return seen
}

function mentioner({ accounts: a }: Snapshot, m: number) {
  return {
    platform_id: a.platformId[m],
    username: a.username[m],
    name: a.name[m],
    profile_image: a.profileImage[m],
    blue_verified: a.blueVerified[m] === 1,
    platform_score: a.platformScore[m],
    followers_count: a.followersCount[m],
  }
}
