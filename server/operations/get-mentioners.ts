/**
 * GET /api/v1/get_mentioners — distinct tracked accounts that mentioned the target within a window (rolling `days`
 * or an inclusive UTC date range), with the target's profile and the window echoed (key `mentioners`).
 */
import { mentionerPage } from '../queries/mentioners.ts'
import { defineOperation } from './define.ts'
import { PREFIXED_LABELS, prefixedLabels } from '../queries/profile.ts'
import { accountParameters, resolveAccount } from '../params/account.ts'
import { filterParameter, readFilterId } from '../params/filters.ts'
import { labelFilter } from '../queries/labels.ts'
import { pagedBody, pageParameters, readPage } from '../params/page.ts'
import { byParameter, readAscending, readBy, sortParameter } from '../params/sort.ts'
import { daysSchema, mentionWindowParameters, readMentionWindow } from '../params/windows.ts'
import { boolean, date, envelope, id, integer, nullable, object, score, string } from '../openapi/schema.ts'
import type { Snapshot } from '../snapshot/load.ts'

/** Order of the values in the spec's failure message. */
const MENTIONERS_BY = ['score', 'followers'] as const

const targetProfile = {
  platform_id: id(),
  username: string(),
  name: nullable(string()),
  description: string(),
  followers_count: integer(),
  profile_image: nullable(string()),
  ...PREFIXED_LABELS,
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
      envelope('mentioners', mentionerRow, { ...targetProfile, days: daysSchema() }),
      envelope('mentioners', mentionerRow, { ...targetProfile, date_from: date(), date_to: date() }),
    ],
  },
  cache: 'default',
  handle({ query, snapshot, now }) {
    const target = resolveAccount(snapshot, query, 'fallback')
    const window = readMentionWindow(query, now)
    const request = readPage(query, 'get_mentioners')
    const { total, authors } = mentionerPage(snapshot, target, {
      startMs: window.startMs,
      endMs: window.endMs,
      by: readBy(query, MENTIONERS_BY, 'score'),
      ascending: readAscending(query),
      keep: labelFilter(snapshot, readFilterId(query, 'category_id', 'ignore'), readFilterId(query, 'tag_id', 'ignore')),
      request,
    })
    return pagedBody(
      request,
      total,
      'mentioners',
      authors.map((idx) => mentioner(snapshot, idx)),
      { ...targetOf(snapshot, target), ...window.echo },
    )
  },
})

/** The target's members after the page fields. */
function targetOf(snapshot: Snapshot, target: number) {
  const a = snapshot.accounts
  return {
    platform_id: a.platformId.at(target),
    username: a.username.at(target),
    name: a.name.at(target),
    description: a.description.at(target),
    followers_count: a.followersCount[target],
    profile_image: a.profileImage.at(target),
    ...prefixedLabels(snapshot, target),
  }
}

function mentioner({ accounts: a }: Snapshot, m: number) {
  return {
    platform_id: a.platformId.at(m),
    username: a.username.at(m),
    name: a.name.at(m),
    profile_image: a.profileImage.at(m),
    blue_verified: a.blueVerified[m] === 1,
    platform_score: a.platformScore[m],
    followers_count: a.followersCount[m],
  }
}
