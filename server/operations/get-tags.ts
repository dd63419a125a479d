/**
 * GET /api/v1/get_tags — the spec's other name for the tags list: `get_tags_list`'s declaration and handler under
 * its own path, so it has its own rate-limit bucket (`api-get-tags`) and cache entries.
 */
import { defineOperation } from './define.ts'
import getTagsList from './get-tags-list.ts'

export default defineOperation({
  ...getTagsList,
  name: 'get_tags',
  summary: `Alias of \`get_tags_list\` (same parameters and response; own rate-limit bucket and cache). ${getTagsList.summary}`,
})
