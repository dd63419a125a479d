/** GET /api/v1/get_platform_score — the cheapest account lookup: score and rank only. */
import { defineOperation } from './define.ts'
import { accountParameters, resolveAccount } from '../params/account.ts'
import { id, integer, nullable, object, score, string } from '../openapi/schema.ts'

export default defineOperation({
  name: 'get_platform_score',
  groups: ['Scores'],
  summary: 'The cheapest lookup: an account’s platform score and rank (rank null for a friend-only record).',
  parameters: accountParameters('fallback'),
  response: object({
    success: { const: true },
    platform_id: id(),
    username: string(),
    platform_score: score(),
    rank: nullable(integer({ minimum: 1 })),
  }),
  cache: 'default',
  handle({ query, snapshot }) {
    const idx = resolveAccount(snapshot, query, 'fallback')
    const a = snapshot.accounts
    return {
      success: true,
      platform_id: a.platformId.at(idx),
      username: a.username.at(idx),
      platform_score: a.platformScore[idx],
      rank: a.rank[idx] || null,
    }
  },
})
