import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { assertMatchesOpenApi } from './_openapi.ts'
import { paginationCases } from './_pagination.ts'
import { setup } from './_setup.ts'

const TagCategories = suite('get_tag_categories')

TagCategories('happy :: every tag category as {id, name}, ordered by id', async () => {
  const { get, query } = await setup()
  const rows = await query(`SELECT tag_category_id AS id, name FROM tag_categories ORDER BY tag_category_id`)
  assert.ok(rows.length > 1 && rows.length <= 25)
  const res = await get('get_tag_categories', { size: 25 })
  assert.equal(res.body, { success: true, total: rows.length, page: 1, size: rows.length, pages: 1, tag_categories: rows })
  await assertMatchesOpenApi('get_tag_categories', res)
})

TagCategories('reference :: the tags list names its categories exactly as this list does', async () => {
  const { get } = await setup()
  const categories = new Map(
    (await get('get_tag_categories', { size: 25 })).body.tag_categories.map((c: { id: number; name: string }) => [c.id, c.name]),
  )
  const tags = (await get('get_tags_list', { size: 100 })).body.tags
  assert.ok(tags.length > 0)
  for (const tag of tags) assert.is(tag.tag_category_name, categories.get(tag.tag_category_id), `tag ${tag.id}`)
})

paginationCases(TagCategories, 'get_tag_categories', () => ({}), { default: 10, max: 25 }, 'tag_categories')

TagCategories.run()
