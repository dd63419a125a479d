/**
 * GET /api/v1/get_smart_follows — the ranked lists of accounts gaining smart followers (at most 1000 per window and
 * bucket), re-sortable by alpha, score or follower count (key `data`, plus the applied `days` and `bucket`).
 */
import { defineOperation } from './define.ts'
import { pagedItems, pageParameters, readPage } from '../params/page.ts'
import { byParameter, readAscending, readBy, sortParameter } from '../params/sort.ts'
import { daysParameter, daysSchema, readDays, DAYS_MESSAGE } from '../params/windows.ts'
import { array, boolean, envelope, id, integer, number, object, score, string } from '../openapi/schema.ts'

/** Order of the values in the spec's failure message. */
const SMART_FOLLOWS_BY = ['score', 'followers', 'alpha'] as const

/** `bucket` value (lower case): which smart followers count (all; Venture Capitals; Influencers; Angels). */
const BUCKETS = ['all', 'vc', 'inf', 'angels'] as const

export default defineOperation({
  name: 'get_smart_follows',
  groups: ['Lists'],
  summary:
    'Accounts gaining smart followers in the last 1, 7 or 30 days, at most 1000 ranked rows per window and bucket.',
  parameters: [
    daysParameter('Window in days.', DAYS_MESSAGE),
    byParameter(
      SMART_FOLLOWS_BY,
      'alpha',
      'Case-sensitive. `alpha`: change in new smart followers against the previous period; `score`: current score; `followers`: current follower count.',
    ),
    sortParameter,
    {
      name: 'bucket',
      description:
        'Case-insensitive: `all`, `vc` (venture capitals), `inf` (influencers), `angels`; which smart followers count. Unknown values fall back to `all`.',
      schema: { ...string({ enum: [...BUCKETS] }), default: 'all' },
    },
    ...pageParameters('get_smart_follows'),
  ],
  response: envelope(
    'data',
    object({
      platform_id: id(),
      username: string(),
      name: string(),
      description: string(),
      profile_url: string({ pattern: '^/' }),
      profile_image: string(),
      blue_verified: boolean(),
      platform_score: score(),
      platform_score_diff: number(),
      current_followers: integer(),
      followers_diff: integer(),
      total_alpha_followers: integer({ minimum: 0 }),
      new_alpha_followers_diff: integer(),
      top_alpha_followers: array(
        object({ name: string(), username: string(), image: string(), score: score(), verified: boolean() }),
      ),
    }),
    { days: daysSchema(), bucket: string({ enum: [...BUCKETS] }) },
  ),
  cache: 'default',
  handle({ query, snapshot }) {
    const days = readDays(query, DAYS_MESSAGE)
    const by = readBy(query, SMART_FOLLOWS_BY, 'alpha')
    const ascending = readAscending(query)
    const requested = query.get('bucket')?.trim().toLowerCase() ?? ''
    const bucket = (BUCKETS as readonly string[]).includes(requested) ? requested : 'all'
    const request = readPage(query, 'get_smart_follows')
    const list = snapshot.smartFollows.get(`${days}:${bucket}`)
    // lists are stored in each descending order; ascending reads them backwards
    const ordered = list ? (by === 'alpha' ? list.byRank : by === 'score' ? list.byScore : list.byFollowers) : []
    const total = ordered.length
    return pagedItems(request, total, 'data', (p) => ordered[ascending ? total - 1 - p : p], { days, bucket })
  },
})

