/** GET /api/v1/get_categories — the category reference list, ordered by id. */
import { defineOperation } from './define.ts'
import { pagedBody, pageParameters, pageRange, readPage } from '../params/page.ts'
import { envelope, plainReference } from '../openapi/schema.ts'

export default defineOperation({
  name: 'get_categories',
  groups: ['Reference'],
  summary: 'Categories ({id, name}) ordered by id. Always succeeds.',
  parameters: pageParameters('get_categories'),
  response: envelope('categories', plainReference()),
  cache: 'default',
  handle({ query, snapshot }) {
    const request = readPage(query, 'get_categories')
    const { start, end } = pageRange(request, snapshot.categories.length)
    const items = snapshot.categories.slice(start, end).map(({ id, name }) => ({ id, name }))
    return pagedBody(request, snapshot.categories.length, 'categories', items)
  },
})
