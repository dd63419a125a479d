/**
 * GET /api/v1/get_categories_list — the spec's other name for the categories list (its cross-references):
 * `get_categories`' declaration and handler under its own path, so it has its own rate-limit bucket
 * (`api-get-categories-list`) and cache entries.
 */
import { defineOperation } from './define.ts'
import getCategories from './get-categories.ts'

export default defineOperation({
  ...getCategories,
  name: 'get_categories_list',
  summary: `Alias of \`get_categories\` (same parameters and response; own rate-limit bucket and cache). ${getCategories.summary}`,
})
