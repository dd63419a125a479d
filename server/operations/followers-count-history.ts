/** GET /api/v1/followers_count_history — daily follower-count snapshots of an account, newest first. */
import { defineOperation } from './define.ts'
import { accountParameters, resolveAccount } from '../params/account.ts'
import { formatDay, utcDay } from '../params/dates.ts'
import { followerCounts } from '../queries/daily-series.ts'
import { periodParameter, readPeriodDays } from '../params/period.ts'
import { pagedBody, pageParameters, pageRange, readPage } from '../params/page.ts'
import { date, envelope, integer, object } from '../openapi/schema.ts'

export default defineOperation({
  name: 'followers_count_history',
  groups: ['Followers', 'History'],
  summary: 'Daily follower-count snapshots within a period ending today (UTC); days without a scan are skipped.',
  parameters: [
    ...accountParameters('fallback'),
    periodParameter,
    ...pageParameters('followers_count_history'),
  ],
  response: envelope('followers_count', object({ date: date(), followers_count: integer() })),
  cache: 'default',
  handle({ query, snapshot, now }) {
    const idx = resolveAccount(snapshot, query, 'fallback')
    const { day, counts } = followerCounts(snapshot.followersCountHistory, idx, utcDay(now), readPeriodDays(query))
    const request = readPage(query, 'followers_count_history')
    const { start, end } = pageRange(request, day.length)
    const value = counts(start, end)
    const rows = []
    for (let i = start; i < end; i++) rows.push({ date: formatDay(day[i]), followers_count: value[i - start] })
    return pagedBody(request, day.length, 'followers_count', rows)
  },
})
