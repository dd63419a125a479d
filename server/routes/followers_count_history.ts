/** GET /api/v1/followers_count_history — daily follower-count snapshots of an account, newest first. */
import { defineOperation } from '../operation.ts'
import { accountParameters, resolveAccount } from '../rules/account.ts'
import { formatDay, utcDay } from '../rules/dates.ts'
import { dayRows, periodParameter, readPeriodDays } from '../rules/history.ts'
import { jsonNumber } from '../internal/json_parts.ts'
import { pagedJson, pageParameters, pageRange, readPage } from '../rules/pagination.ts'
import { date, envelope, integer, object } from '../schema.ts'

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
    const history = snapshot.followersCountHistory
    const { first, day } = dayRows(history, idx, utcDay(now), readPeriodDays(query))
    const request = readPage(query, 'followers_count_history')
    const total = day.length
    const { start, end } = pageRange(request, total)
    const counts = history.followersCount.read(first + start, first + end)
    // rows of two numbers: their JSON is written here rather than stringified from objects
    const items = []
    for (let i = start; i < end; i++) items.push([`{"date":"${formatDay(day[i])}","followers_count":${jsonNumber(counts[i - start])}}`])
    return pagedJson(request, total, 'followers_count', items)
  },
})
