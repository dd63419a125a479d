/**
 * GET /api/v1/get_trending — accounts whose smart-follower count or score grew most over the last 1, 7 or 30 days,
 * filterable by category and tag, at most 1000 rows after the filters (key `data`, plus the applied `days` and `by`).
 */
import { PROFILE_HEAD, profileHead } from '../queries/profile.ts'
import { defineOperation } from './define.ts'
import { filterParameter, readFilterId } from '../params/filters.ts'
import { labelFilter } from '../queries/labels.ts'
import { pagedItems, pageParameters, readPage } from '../params/page.ts'
import { byParameter, readAscending, readBy, sortParameter } from '../params/sort.ts'
import { daysParameter, daysSchema, readDays, DAYS_MESSAGE } from '../params/windows.ts'
import { boolean, envelope, integer, number, object, score, string } from '../openapi/schema.ts'
import type { Snapshot, TrendingList } from '../snapshot/load.ts'

/** Order of the values in the failure message; `smart_followers` is the default. */
const TRENDING_BY = ['smart_followers', 'score'] as const

/** The list is the 1000 largest growths that pass the filters. */
const TRENDING_CAP = 1000

export default defineOperation({
  name: 'get_trending',
  groups: ['Lists'],
  summary:
    'Accounts with the largest positive growth of smart followers or score over the last 1, 7 or 30 days (at most 1000 rows after the filters).',
  parameters: [
    daysParameter('Window in days, ending on the snapshot date.', DAYS_MESSAGE),
    byParameter(
      TRENDING_BY,
      'smart_followers',
      'Case-sensitive. The growing metric: smart-follower count or score. Only accounts with a positive growth are listed.',
    ),
    { ...sortParameter, description: `${sortParameter.description} Descending = largest growth first; ascending reverses the same (capped) list.` },
    filterParameter('category_id', 'Keeps accounts carrying this category (AND with `tag_id`).', 'ignore'),
    filterParameter('tag_id', 'Keeps accounts carrying this tag (AND with `category_id`).', 'ignore'),
    ...pageParameters('get_trending'),
  ],
  response: envelope(
    'data',
    object({
      ...PROFILE_HEAD,
      blue_verified: boolean(),
      platform_score: score(),
      platform_score_diff: number(),
      smart_followers_count: integer({ minimum: 0 }),
      smart_followers_diff: integer(),
      followers_count: integer({ minimum: 0 }),
    }),
    { days: daysSchema(), by: string({ enum: [...TRENDING_BY] }) },
  ),
  cache: 'default',
  handle({ query, snapshot }) {
    const days = readDays(query, DAYS_MESSAGE)
    const by = readBy(query, TRENDING_BY, 'smart_followers')
    const ascending = readAscending(query)
    const keep = labelFilter(snapshot, readFilterId(query, 'category_id', 'ignore'), readFilterId(query, 'tag_id', 'ignore'))
    const request = readPage(query, 'get_trending')
    const list = snapshot.trending.get(`${days}:${by}`)
    const ranked = list ? list.accountIdx.length : 0
    // rank positions of the kept rows, largest growth first (without filters, the first ones); ascending reads them
    // backwards
    let kept: number[] | null = null
    if (keep) {
      kept = []
      for (let p = 0; p < ranked && kept.length < TRENDING_CAP; p++) if (keep(list!.accountIdx[p])) kept.push(p)
    }
    const total = kept ? kept.length : Math.min(ranked, TRENDING_CAP)
    const item = (q: number) => {
      const at = ascending ? total - 1 - q : q
      return trendingItem(snapshot, list!, kept ? kept[at] : at)
    }
    return pagedItems(request, total, 'data', item, { days, by })
  },
})

function trendingItem(snapshot: Snapshot, list: TrendingList, p: number) {
  const a = snapshot.accounts
  const idx = list.accountIdx[p]
  // assigned into the head, not spread into a copy of it (a copy is slower to build and to serialise)
  return Object.assign(profileHead(snapshot, idx), {
    blue_verified: a.blueVerified[idx] === 1,
    platform_score: a.platformScore[idx],
    platform_score_diff: list.platformScoreDiff[p],
    smart_followers_count: a.smartFollowersCount[idx],
    smart_followers_diff: list.smartFollowersDiff[p],
    followers_count: a.followersCount[idx],
  })
}
