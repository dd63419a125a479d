import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { assertMatchesOpenApi } from './_openapi.ts'
import { paginationCases } from './_pagination.ts'
import { setup } from './_setup.ts'

const Categories = suite('get_categories')

Categories('happy :: every category as {id, name}, ordered by id', async () => {
  const { get, query } = await setup()
  const rows = await query(`SELECT category_id AS id, name FROM categories ORDER BY category_id`)
  const res = await get('get_categories', { size: 25 })
  assert.equal(res.body, { success: true, total: rows.length, page: 1, size: rows.length, pages: 1, categories: rows })
  assert.equal(
    rows.map((r) => r.name).sort(),
    ['Angels', 'Auditors', 'Exchanges', 'Founders', 'Influencers', 'Media', 'Projects', 'Venture Capitals'],
  )
  await assertMatchesOpenApi('get_categories', res)
})

paginationCases(Categories, 'get_categories', () => ({}), { default: 10, max: 25 }, 'categories')

const CategoriesList = suite('get_categories_list')

CategoriesList('alias :: the spec\'s cross-reference name answers exactly like get_categories', async () => {
  const { get } = await setup()
  const variants: Record<string, string | number>[] = [{}, { size: 25 }, { size: 3, page: 2 }, { page: 'x', size: '0' }]
  for (const params of variants) {
    const alias = await get('get_categories_list', params)
    const original = await get('get_categories', params)
    assert.equal(alias.body, original.body, JSON.stringify(params))
  }
  await assertMatchesOpenApi('get_categories_list', await get('get_categories_list', {}))
})

CategoriesList('alias :: its own rate-limit bucket', async () => {
  const { get } = await setup()
  const res = await get('get_categories_list', {})
  assert.match(res.headers.get('ratelimit-policy') ?? '', '"api-get-categories-list"')
})

paginationCases(CategoriesList, 'get_categories_list', () => ({}), { default: 10, max: 25 }, 'categories')

Categories.run()
CategoriesList.run()
