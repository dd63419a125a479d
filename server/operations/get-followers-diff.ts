/** GET /api/v1/get_followers_diff — follower-count change over the trailing 7 and 30 days (UTC, as of the request). */
import { defineOperation } from './define.ts'
import { accountParameters, resolveAccount } from '../params/account.ts'
import { diffBody } from '../queries/daily-series.ts'
import { date, integer, nullable, object, string } from '../openapi/schema.ts'

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
    return diffBody(snapshot.followersCountHistory, resolveAccount(snapshot, query, 'fallback'), now)
  },
})
