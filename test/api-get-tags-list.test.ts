import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { assertMatchesOpenApi } from './_openapi.ts'
import { paginationCases } from './_pagination.ts'
import { setup } from './_setup.ts'

const TagsList = suite('get_tags_list')
const Tags = suite('get_tags')

/** Tags with their category joined from tag_categories, ordered by id, by SQL. */
async function expectedTags(where = 'true') {
  const { query } = await setup()
  return query(`
    SELECT t.tag_id AS id, t.name, t.tag_category_id, c.name AS tag_category_name
    FROM tags t LEFT JOIN tag_categories c USING (tag_category_id) WHERE ${where} ORDER BY t.tag_id`)
}

TagsList('happy :: every tag as {id, name, tag_category_id, tag_category_name}, ordered by id', async () => {
  const { get } = await setup()
  const rows = await expectedTags()
  assert.ok(rows.length > 10 && rows.length <= 100, 'the tiny snapshot needs more than one page of tags')
  const res = await get('get_tags_list', { size: 100 })
  assert.equal(res.body, { success: true, total: rows.length, page: 1, size: rows.length, pages: 1, tags: rows })
  assert.ok(rows.every((r) => typeof r.tag_category_name === 'string'))
  await assertMatchesOpenApi('get_tags_list', res)
})

TagsList('filter :: tag_category_id keeps the tags of that tag category, every category', async () => {
  const { get, query } = await setup()
  const categories = await query(`SELECT tag_category_id AS id FROM tag_categories ORDER BY 1`)
  assert.ok(categories.length > 1)
  for (const { id } of categories) {
    const rows = await expectedTags(`t.tag_category_id = ${id}`)
    const res = await get('get_tags_list', { tag_category_id: id, size: 100 })
    assert.equal(res.body, { success: true, total: rows.length, page: 1, size: rows.length, pages: 1, tags: rows }, `category ${id}`)
  }
})

TagsList('filter :: a non-numeric tag_category_id is ignored', async () => {
  const { get } = await setup()
  const all = (await get('get_tags_list', { size: 100 })).body
  for (const tag_category_id of ['abc', '1.5', '', '2x']) {
    const res = await get('get_tags_list', { tag_category_id, size: 100 })
    assert.equal(res.body, all, tag_category_id)
  }
})

TagsList('filter :: an unknown tag category gives an empty list with total 0 and pages 1', async () => {
  const { get } = await setup()
  const res = await get('get_tags_list', { tag_category_id: 987654 })
  assert.equal(res.body, { success: true, total: 0, page: 1, size: 0, pages: 1, tags: [] })
  await assertMatchesOpenApi('get_tags_list', res)
})

TagsList('filter :: pagination applies after the filter', async () => {
  const { get } = await setup()
  const rows = await expectedTags('t.tag_category_id = 1')
  assert.ok(rows.length > 2, 'tag category 1 needs several tags')
  const res = await get('get_tags_list', { tag_category_id: 1, size: 2, page: 2 })
  assert.equal(res.body, {
    success: true, total: rows.length, page: 2, size: 2, pages: Math.ceil(rows.length / 2), tags: rows.slice(2, 4),
  })
})

paginationCases(TagsList, 'get_tags_list', () => ({}), { default: 10, max: 100 }, 'tags')

Tags('alias :: get_tags answers exactly what get_tags_list answers', async () => {
  const { get } = await setup()
  const cases: Record<string, string | number>[] = [
    {}, { size: 100 }, { size: 3, page: 2 }, { tag_category_id: 2 }, { tag_category_id: 'abc', size: 5 }, { tag_category_id: 987654 },
  ]
  for (const params of cases) {
    const list = await get('get_tags_list', params)
    const alias = await get('get_tags', params)
    assert.equal(alias.body, list.body, JSON.stringify(params))
    await assertMatchesOpenApi('get_tags', alias)
  }
})

Tags('alias :: its own rate-limit bucket', async () => {
  const { get } = await setup()
  const remaining = (res: { headers: Headers }, bucket: string) =>
    Number(new RegExp(`"${bucket}";r=(\\d+)`).exec(res.headers.get('ratelimit') ?? '')?.[1])
  const list = await get('get_tags_list', {})
  const alias = await get('get_tags', {})
  assert.match(list.headers.get('ratelimit-policy') ?? '', '"api-get-tags-list"')
  assert.match(alias.headers.get('ratelimit-policy') ?? '', '"api-get-tags"')
  const listAgain = await get('get_tags_list', {})
  // the alias call in between did not use up the list's bucket
  assert.is(remaining(listAgain, 'api-get-tags-list'), remaining(list, 'api-get-tags-list') - 1)
  assert.ok(Number.isFinite(remaining(alias, 'api-get-tags')))
})

Tags('alias :: its own cache entries', async () => {
  const { get } = await setup()
  const params = { size: 4, page: 3, probe: `${process.pid}-${Date.now()}` }
  // each stored on its first miss, then served from its own entry
  for (const name of ['get_tags_list', 'get_tags']) {
    assert.is((await get(name, params)).headers.get('x-cache'), 'MISS', name)
    assert.is((await get(name, params)).headers.get('x-cache'), 'HIT', name)
  }
})

paginationCases(Tags, 'get_tags', () => ({}), { default: 10, max: 100 }, 'tags')

TagsList.run()
Tags.run()
