/** GET /api/v1/get_score_history — daily stored scores (and ranks) of an account within a period, newest first. */
import { defineOperation } from './define.ts'
import { accountParameters, resolveAccount } from '../params/account.ts'
import { formatDay, parseDay, utcDay } from '../params/dates.ts'
import { ranksOn, scoreDays } from '../queries/daily-series.ts'
import { periodParameter, readPeriodDays } from '../params/period.ts'
import { pagedBody, pageParameters, pageRange, readPage } from '../params/page.ts'
import { date, envelope, integer, nullable, object, score } from '../openapi/schema.ts'

export default defineOperation({
  name: 'get_score_history',
  groups: ['Scores', 'History'],
  summary:
    'Daily stored scores within a period ending today (UTC), newest first; days without a stored score (or with score 0) are skipped. Scores are kept 365 days, ranks 30 (`rank` is null on earlier days).',
  parameters: [...accountParameters('fallback'), periodParameter, ...pageParameters('get_score_history')],
  response: envelope(
    'score_history',
    object({ date: date(), platform_score: score(), rank: nullable(integer({ minimum: 1 })) }),
  ),
  cache: 'default',
  handle({ query, snapshot, now }) {
    const idx = resolveAccount(snapshot, query, 'fallback')
    const { day, scores } = scoreDays(snapshot.scoreHistory, idx, utcDay(now), readPeriodDays(query))
    const request = readPage(query, 'get_score_history')
    const { start, end } = pageRange(request, day.length)
    const score = scores(start, end)
    const rank = ranksOn(snapshot.scoreHistory, idx, parseDay(snapshot.date)!, day.slice(start, end))
    const rows = []
    for (let i = start; i < end; i++) {
      rows.push({ date: formatDay(day[i]), platform_score: score[i - start], rank: rank[i - start] || null })
    }
    return pagedBody(request, day.length, 'score_history', rows)
  },
})
