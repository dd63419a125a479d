/**
 * GET /api/v1/get_platform_top_followers — the original API's "top followers": the target's smart followers by
 * platform score, highest first, as `get_followers` with `by=score&sort=desc`, the items under `data`. Its clients
 * also send `period`: accepted and ignored (the list is always the current smart followers; their history is
 * `friendshipHistory/followed`).
 */
import { envelope, string } from '../openapi/schema.ts'
import { accountParameters } from '../params/account.ts'
import { pageParameters } from '../params/page.ts'
import { defineOperation } from './define.ts'
import getFollowers, { FOLLOWER_ROW } from './get-followers.ts'

/** What the answer is made of: the account and the page; sort and filters are fixed. */
const PASSED = ['username', 'platform_id', 'page', 'size']

export default defineOperation({
  name: 'get_platform_top_followers',
  groups: ['Followers'],
  summary:
    'Top smart followers of the target by platform score, highest first (items under `data`); the original API’s name.',
  parameters: [
    ...accountParameters('fallback'),
    {
      name: 'period',
      description: 'Accepted for the original API’s clients and ignored: the list is the current smart followers.',
      schema: string({ examples: ['7d', '30d'] }),
    },
    ...pageParameters('get_followers'),
  ],
  response: envelope('data', FOLLOWER_ROW),
  cache: 'default',
  handle(context) {
    const query = new URLSearchParams()
    for (const name of PASSED) for (const value of context.query.getAll(name)) query.append(name, value)
    const { top_followers, ...page } = getFollowers.handle({ ...context, query }) as { top_followers: unknown[] }
    return { ...page, data: top_followers }
  },
})
