/** GET /api/v1/get_categories — the category reference list, ordered by id. */
import { defineOperation } from './define.ts'
import { pagedList, pageParameters } from '../params/page.ts'
import { envelope, plainReference } from '../openapi/schema.ts'

export default defineOperation({
  name: 'get_categories',
  groups: ['Reference'],
  summary: 'Categories ({id, name}) ordered by id. Always succeeds.',
  parameters: pageParameters('get_categories'),
  response: envelope('categories', plainReference()),
  cache: 'default',
  handle({ query, snapshot }) {
    return pagedList(query, 'get_categories', 'categories', snapshot.categories, ({ id, name }) => ({ id, name }))
  },
})
