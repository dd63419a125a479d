/** GET /api/v1/get_platform_score — the cheapest account lookup: score and rank only. */
import { defineOperation } from './define.ts'
import { accountParameters, resolveAccount } from '../params/account.ts'
import { object } from '../openapi/schema.ts'
import { SCORE_HEAD, scoreHead } from '../queries/profile.ts'

export default defineOperation({
  name: 'get_platform_score',
  groups: ['Scores'],
  summary: 'The cheapest lookup: an account’s platform score and rank (rank null for a friend-only record).',
  parameters: accountParameters('fallback'),
  response: object(SCORE_HEAD),
  cache: 'default',
  handle({ query, snapshot }) {
    return scoreHead(snapshot, resolveAccount(snapshot, query, 'fallback'))
  },
})
