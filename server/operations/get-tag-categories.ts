/** GET /api/v1/get_tag_categories — the tag-category reference list, ordered by id. */
import { defineOperation } from './define.ts'
import { pagedBody, pageParameters, pageRange, readPage } from '../params/page.ts'
import { envelope, plainReference } from '../openapi/schema.ts'

export default defineOperation({
  name: 'get_tag_categories',
  groups: ['Reference'],
  summary: 'Tag categories ({id, name}) ordered by id. Always succeeds.',
  parameters: pageParameters('get_tag_categories'),
  response: envelope('tag_categories', plainReference()),
  cache: 'default',
  handle({ query, snapshot }) {
    const request = readPage(query, 'get_tag_categories')
    const { start, end } = pageRange(request, snapshot.tagCategories.length)
    const items = snapshot.tagCategories.slice(start, end).map(({ id, name }) => ({ id, name }))
    return pagedBody(request, snapshot.tagCategories.length, 'tag_categories', items)
  },
})
