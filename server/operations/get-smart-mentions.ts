/**
 * GET /api/v1/get_smart_mentions — how often smart authors (monitored, active, not suspended) mentioned the target
 * in the last 1, 7 and 30 days back from the request time: tweets and distinct authors per window.
 */
import { mentionWindows } from '../queries/smart-mention-windows.ts'
import { defineOperation } from './define.ts'
import { accountParameters, resolveAccount } from '../params/account.ts'
import { ALLOWED_DAYS, daysSchema } from '../params/windows.ts'
import { array, id, integer, object, string } from '../openapi/schema.ts'

export default defineOperation({
  name: 'get_smart_mentions',
  groups: ['Mentions'],
  summary:
    'Mentions of the target by smart authors (self-mentions excluded) in the rolling 1, 7 and 30 days back from the request time: tweets and distinct authors.',
  parameters: accountParameters('fallback'),
  response: object({
    success: { const: true },
    platform_id: id(),
    username: string(),
    windows: {
      ...array(
        object({
          days: daysSchema(),
          mentions: integer({ minimum: 0 }),
          authors: integer({ minimum: 0 }),
        }),
      ),
      minItems: ALLOWED_DAYS.length,
      maxItems: ALLOWED_DAYS.length,
    },
  }),
  cache: 'default',
  handle({ query, snapshot, now }) {
    const target = resolveAccount(snapshot, query, 'fallback')
    return {
      success: true,
      platform_id: snapshot.accounts.platformId.at(target),
      username: snapshot.accounts.username.at(target),
      windows: mentionWindows(snapshot, target, now.getTime()),
    }
  },
})
