/** GET /api/v1/followers_count_history — daily follower-count snapshots of an account, newest first. */
import { defineOperation } from '../operation.ts'
import { accountParameters, resolveAccount } from '../rules/account.ts'
import { formatDay, utcDay } from '../rules/dates.ts'
import { pagedBody, pageParameters, pageRange, readPage } from '../rules/pagination.ts'
import { date, envelope, integer, object, string } from '../schema.ts'

/** `period` value (lower case) → days in the window; `all` = the whole stored history. */
export const PERIOD_DAYS: Record<string, number> = {
  '3d': 3,
  '7d': 7,
  '1w': 7,
  '30d': 30,
  '1m': 30,
  '180d': 180,
  '6m': 180,
  '365d': 365,
  '1y': 365,
  all: Infinity,
}
const DEFAULT_PERIOD_DAYS = 30

export default defineOperation({
  name: 'followers_count_history',
  groups: ['Followers', 'History'],
  summary: 'Daily follower-count snapshots within a period ending today (UTC); days without a scan are skipped.',
  parameters: [
    ...accountParameters('fallback'),
    {
      name: 'period',
      description:
        'Case-insensitive. `1w` = 7 days, `1m` = 30, `6m` = 180, `1y` = 365, `all` = whole history; the window is today (UTC) and the previous N-1 days. Unrecognised values fall back to 30 days.',
      schema: { ...string({ enum: Object.keys(PERIOD_DAYS) }), default: '30d' },
    },
    ...pageParameters('followers_count_history'),
  ],
  response: envelope('followers_count', object({ date: date(), followers_count: integer() })),
  cache: 'default',
  handle({ query, snapshot, now }) {
    const idx = resolveAccount(snapshot, query, 'fallback')
    const days = PERIOD_DAYS[query.get('period')?.trim().toLowerCase() ?? ''] ?? DEFAULT_PERIOD_DAYS
    const today = utcDay(now)
    const oldest = today - days + 1
    const history = snapshot.followersCountHistory
    // rows are newest first: skip any day after today, keep days down to the oldest of the window
    let first = history.offsets[idx]
    const stop = history.offsets[idx + 1]
    while (first < stop && history.day[first] > today) first++
    let last = first
    while (last < stop && history.day[last] >= oldest) last++
    const request = readPage(query, 'followers_count_history')
    const total = last - first
    const { start, end } = pageRange(request, total)
    const items = []
    for (let r = first + start; r < first + end; r++) {
      items.push({ date: formatDay(history.day[r]), followers_count: history.followersCount[r] })
    }
    return pagedBody(request, total, 'followers_count', items)
  },
})
