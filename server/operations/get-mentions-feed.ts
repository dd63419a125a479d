/**
 * GET /api/v1/get_mentions_feed — stored tweets that mention the target, newest first by default, sortable by an
 * engagement counter or the author's score and filterable by the author's labels (key `mentions`). The feed itself
 * is shared with get_smart_mentions_feed: see `mentions-feed.ts` beside it.
 */
import { mentionsFeedHandler, mentionsFeedParameters, mentionsFeedResponse } from './mentions-feed.ts'
import { defineOperation } from './define.ts'

export default defineOperation({
  name: 'get_mentions_feed',
  groups: ['Mentions'],
  summary:
    'Stored tweets mentioning the target (its own tweets excluded), newest first by default, with engagement counters and the author.',
  parameters: mentionsFeedParameters('get_mentions_feed'),
  response: mentionsFeedResponse,
  cache: 'default',
  handle: mentionsFeedHandler('get_mentions_feed', (snapshot) => snapshot.mentions),
})
