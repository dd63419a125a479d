/** GET /api/v1/get_tags_list — the tag reference list with each tag's category, ordered by id (alias: get_tags). */
import { defineOperation } from './define.ts'
import { filterParameter, readFilterId } from '../params/filters.ts'
import { pagedList, pageParameters } from '../params/page.ts'
import { envelope, integer, nullable, object, string } from '../openapi/schema.ts'

export default defineOperation({
  name: 'get_tags_list',
  groups: ['Reference'],
  summary: 'Tags ({id, name, tag_category_id, tag_category_name}) ordered by id, optionally of one tag category. Always succeeds.',
  parameters: [
    filterParameter('tag_category_id', 'Keeps the tags of this tag category.', 'ignore'),
    ...pageParameters('get_tags_list'),
  ],
  response: envelope(
    'tags',
    object({ id: integer(), name: string(), tag_category_id: integer(), tag_category_name: nullable(string()) }),
  ),
  cache: 'default',
  handle({ query, snapshot }) {
    const tagCategoryId = readFilterId(query, 'tag_category_id', 'ignore')
    const tags = tagCategoryId === null ? snapshot.tags : snapshot.tags.filter((t) => t.tagCategoryId === tagCategoryId)
    const categoryName = new Map(snapshot.tagCategories.map((c) => [c.id, c.name]))
    return pagedList(query, 'get_tags_list', 'tags', tags, (t) => ({
      id: t.id,
      name: t.name,
      tag_category_id: t.tagCategoryId,
      tag_category_name: categoryName.get(t.tagCategoryId) ?? null,
    }))
  },
})
