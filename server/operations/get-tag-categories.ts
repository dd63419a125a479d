/** GET /api/v1/get_tag_categories — the tag-category reference list, ordered by id. */
import { defineOperation } from './define.ts'
import { pagedList, pageParameters } from '../params/page.ts'
import { envelope, plainReference } from '../openapi/schema.ts'

export default defineOperation({
  name: 'get_tag_categories',
  groups: ['Reference'],
  summary: 'Tag categories ({id, name}) ordered by id. Always succeeds.',
  parameters: pageParameters('get_tag_categories'),
  response: envelope('tag_categories', plainReference()),
  cache: 'default',
  handle({ query, snapshot }) {
    return pagedList(query, 'get_tag_categories', 'tag_categories', snapshot.tagCategories, ({ id, name }) => ({ id, name }))
  },
})
