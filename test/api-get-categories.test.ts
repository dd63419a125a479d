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

Categories.run()
