/** GET /api/v1/get_followers_score_sum — the target's profile and the score sum of its (filtered) smart followers. */
import { followersScoreSum } from '../queries/score-sum.ts'
import { defineOperation } from './define.ts'
import { PREFIXED_LABELS, prefixedLabels, PROFILE_HEAD, profileHead } from '../queries/profile.ts'
import { accountParameters, resolveAccount } from '../params/account.ts'
import { idListParameter, readIdList } from '../params/lists.ts'
import { integer, number, object, score } from '../openapi/schema.ts'

export default defineOperation({
  name: 'get_followers_score_sum',
  groups: ['Followers'],
  summary:
    'Sum of the platform scores of the target’s smart followers matching the filters (each follower counted once), with the target’s own profile, tags and categories.',
  parameters: [
    ...accountParameters('fallback'),
    idListParameter('category_ids', 'A follower matches if it has any of these categories.'),
    idListParameter('tag_ids', 'A follower matches if it has any of these tags; combined with `category_ids` using AND.'),
  ],
  response: object({
    success: { const: true },
    ...PROFILE_HEAD,
    platform_score: score(),
    followers_count: integer(),
    smart_followers_count: integer({ minimum: 0 }),
    followers_score_sum: number({ minimum: 0 }),
    ...PREFIXED_LABELS,
  }),
  cache: 'default',
  handle({ query, snapshot }) {
    const target = resolveAccount(snapshot, query, 'fallback')
    const categoryIds = readIdList(query, 'category_ids')
    const tagIds = readIdList(query, 'tag_ids')
    const sum = followersScoreSum(snapshot, target, categoryIds, tagIds)
    const a = snapshot.accounts
    return {
      success: true,
      ...profileHead(snapshot, target),
      platform_score: a.platformScore[target],
      followers_count: a.followersCount[target],
      smart_followers_count: a.smartFollowersCount[target],
      // scores have 2 decimals: round away the float noise of the sum
      followers_score_sum: Math.round(sum * 100) / 100,
      ...prefixedLabels(snapshot, target),
    }
  },
})
