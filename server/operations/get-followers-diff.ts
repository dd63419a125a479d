/** GET /api/v1/get_followers_diff — follower-count change over the trailing 7 and 30 days (UTC, as of the request). */
import { defineOperation } from './define.ts'
import { accountParameters, resolveAccount } from '../params/account.ts'
import { followersDiffBody, diffResponse } from '../queries/daily-series.ts'
import { integer } from '../openapi/schema.ts'

export default defineOperation({
  name: 'get_followers_diff',
  groups: ['Followers', 'History'],
  summary:
    'Newest minus oldest follower-count snapshot within the trailing 7 (`week`) and 30 (`month`) days ending today (UTC).',
  parameters: accountParameters('fallback'),
  response: diffResponse(integer(), '^([+-][1-9]\\d*|0)$'),
  cache: 'followers_diff',
  handle({ query, snapshot, now }) {
    return followersDiffBody(snapshot.followersCountHistory, resolveAccount(snapshot, query, 'fallback'), now)
  },
})
