/** GET /api/v1/get_score_diff — score change over the trailing 7 and 30 days (UTC, as of the request). */
import { defineOperation } from './define.ts'
import { accountParameters, resolveAccount } from '../params/account.ts'
import { diffResponse, scoreDiffBody } from '../queries/daily-series.ts'
import { number } from '../openapi/schema.ts'

export default defineOperation({
  name: 'get_score_diff',
  groups: ['Scores', 'History'],
  summary:
    'Newest minus oldest stored score within the trailing 7 (`week`) and 30 (`month`) days ending today (UTC), to 2 decimals.',
  parameters: accountParameters('fallback'),
  response: diffResponse(number(), '^([+-]\\d+\\.\\d{2}|0)$'),
  // `today` is as fresh as get_followers_diff's
  cache: 'followers_diff',
  handle({ query, snapshot, now }) {
    return scoreDiffBody(snapshot.scoreHistory, resolveAccount(snapshot, query, 'fallback'), now)
  },
})
