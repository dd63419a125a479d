/** GET /api/v1/get_platform_info — the full account record: profile, score, rank, audience, history of handles, labels. */
import { defineOperation } from './define.ts'
import { PREFIXED_LABELS, prefixedLabels, PROFILE_HEAD, profileHead } from '../queries/profile.ts'
import { accountParameters, resolveAccount } from '../params/account.ts'
import { array, boolean, integer, nullable, object, score, string } from '../openapi/schema.ts'

export default defineOperation({
  name: 'get_platform_info',
  groups: ['Accounts'],
  summary:
    'The full account record: profile, platform score and rank, follower and smart-follower counts, monitored/tracked flags, previous usernames (oldest first), tags and categories.',
  parameters: accountParameters('fallback'),
  response: object({
    success: { const: true },
    ...PROFILE_HEAD,
    platform_url: string({ format: 'uri' }),
    blue_verified: boolean(),
    platform_score: score(),
    rank: nullable(integer({ minimum: 1 })),
    followers_count: integer(),
    smart_followers_count: integer({ minimum: 0 }),
    monitored: boolean(),
    tracked: boolean(),
    previous_usernames: array(string()),
    ...PREFIXED_LABELS,
  }),
  cache: 'default',
  handle({ query, snapshot, profileBaseUrl }) {
    const idx = resolveAccount(snapshot, query, 'fallback')
    const a = snapshot.accounts
    const previous = snapshot.previousUsernames
    return {
      success: true,
      ...profileHead(snapshot, idx),
      platform_url: `${profileBaseUrl}/${a.username.at(idx)}`,
      blue_verified: a.blueVerified[idx] === 1,
      platform_score: a.platformScore[idx],
      rank: a.rank[idx] || null,
      followers_count: a.followersCount[idx],
      smart_followers_count: a.smartFollowersCount[idx],
      monitored: a.isMonitored[idx] === 1,
      tracked: a.isTracked[idx] === 1,
      previous_usernames: previous.username.slice(previous.offsets[idx], previous.offsets[idx + 1]),
      ...prefixedLabels(snapshot, idx),
    }
  },
})
