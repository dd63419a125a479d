/**
 * GET /api/v1/get_smart_mentions_feed — get_mentions_feed restricted to smart authors (monitored, active, not
 * suspended): the same parameters, rules and item shape over the smart mentions (docs/extra-operations.md).
 */
import { mentionsFeedHandler, mentionsFeedParameters, mentionsFeedResponse } from './mentions-feed.ts'
import { defineOperation } from './define.ts'

export default defineOperation({
  name: 'get_smart_mentions_feed',
  groups: ['Mentions'],
  summary:
    'Stored tweets mentioning the target written by smart authors (monitored, active, not suspended), newest first by default; otherwise exactly get_mentions_feed.',
  parameters: mentionsFeedParameters('get_smart_mentions_feed'),
  response: mentionsFeedResponse,
  cache: 'default',
  handle: mentionsFeedHandler('get_smart_mentions_feed', (snapshot) => snapshot.smartMentions),
})
