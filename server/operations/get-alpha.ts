/**
 * GET /api/v1/get_alpha — deprecated alias of get_smart_follows: the same parameters, response and handler, under
 * its own name, so it has its own rate-limit bucket (`api-get-alpha`) and its own response-cache entries.
 */
import { defineOperation } from './define.ts'
import getSmartFollows from './get-smart-follows.ts'

export default defineOperation({
  ...getSmartFollows,
  name: 'get_alpha',
  summary: `Deprecated alias of \`get_smart_follows\` (identical parameters and response). ${getSmartFollows.summary}`,
  deprecated: true,
})
