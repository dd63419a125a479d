/** GET /api/v1/get_followers_diff — follower-count change over the trailing 7 and 30 days (UTC, as of the request). */
import { defineOperation } from '../operation.ts'
import { accountParameters, resolveAccount } from '../rules/account.ts'
import { formatDay, utcDay } from '../rules/dates.ts'
import type { FollowersCountHistory } from '../snapshot/types.ts'
import { date, integer, nullable, object, string } from '../schema.ts'

const windowSchema = object({
  date: nullable(date()),
  diff: integer(),
  diff_str: string({ pattern: '^([+-][1-9]\\d*|0)$' }),
})

export default defineOperation({
  name: 'get_followers_diff',
  groups: ['Followers', 'History'],
  summary:
    'Newest minus oldest follower-count snapshot within the trailing 7 (`week`) and 30 (`month`) days ending today (UTC).',
  parameters: accountParameters('fallback'),
  response: object({ success: { const: true }, today: date(), week: windowSchema, month: windowSchema }),
  cache: 'followers_diff',
  handle({ query, snapshot, now }) {
    const idx = resolveAccount(snapshot, query, 'fallback')
    const today = utcDay(now)
    const history = snapshot.followersCountHistory
    return {
      success: true,
      today: formatDay(today),
      week: windowDiff(history, idx, today, 7),
      month: windowDiff(history, idx, today, 30),
    }
  },
})

/** Today and the previous `days - 1` days: date of the oldest snapshot, newest minus oldest (0 with fewer than two). */
function windowDiff(history: FollowersCountHistory, idx: number, today: number, days: number) {
  let newest = -1
  let oldest = -1
  for (let r = history.offsets[idx]; r < history.offsets[idx + 1]; r++) {
    const day = history.day[r]
    if (day > today) continue
    if (day <= today - days) break // newest first: everything after is older still
    if (newest === -1) newest = r
    oldest = r
  }
  const diff = oldest !== newest ? history.followersCount[newest] - history.followersCount[oldest] : 0
  return {
    date: oldest === -1 ? null : formatDay(history.day[oldest]),
    diff,
    diff_str: diff > 0 ? `+${diff}` : String(diff),
  }
}
