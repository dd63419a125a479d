import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { assertMatchesOpenApi } from './_openapi.ts'
import { paginationCases } from './_pagination.ts'
import { setup } from './_setup.ts'

const Bulk = suite('bulk_scores_check')

interface Row {
  platform_id: string
  username: string
  platform_url: string
  platform_score: number
}

/** Twelve accounts by SQL, with their expected rows. */
async function accounts(): Promise<Row[]> {
  const { query, config } = await setup()
  return query<Row>(`
    SELECT platform_id::VARCHAR AS platform_id, username, '${config.profileBaseUrl}/' || username AS platform_url, platform_score
    FROM accounts WHERE is_tracked ORDER BY platform_score DESC, platform_id LIMIT 12`)
}

Bulk('happy :: ids give matched rows in input order; unknown ids are absent and not counted', async () => {
  const { get } = await setup()
  const rows = (await accounts()).slice(0, 5).reverse()
  const ids = [rows[0].platform_id, '18446744073709551615', ...rows.slice(1).map((r) => r.platform_id)]
  const res = await get('bulk_scores_check', { ids: ids.join(',') })
  assert.equal(res.body, { success: true, total: 5, page: 1, size: 5, pages: 1, data: rows })
  await assertMatchesOpenApi('bulk_scores_check', res)
})

Bulk('happy :: ids bigger than 2^53 come back exactly, as strings', async () => {
  const { get, query } = await setup()
  const [big] = await query(`SELECT platform_id::VARCHAR AS id FROM accounts ORDER BY platform_id DESC LIMIT 1`)
  const res = await get('bulk_scores_check', { ids: big.id })
  assert.is(res.body.data[0].platform_id, big.id)
})

Bulk('usernames :: handles with whitespace per entry, used only when ids is empty', async () => {
  const { get } = await setup()
  const rows = (await accounts()).slice(0, 3)
  const usernames = rows.map((r) => `  ${r.username.toLowerCase()} `).join(',')
  const res = await get('bulk_scores_check', { usernames, ids: '' })
  assert.equal(res.body.data, rows)
  const both = await get('bulk_scores_check', { usernames, ids: rows[2].platform_id })
  assert.equal(both.body.data, [rows[2]])
})

Bulk('entries :: only the first 50 entries are considered, non-numeric ones included', async () => {
  const { get } = await setup()
  const [row] = await accounts()
  const junk = (n: number) => Array.from({ length: n }, (_, i) => `x${i}`)
  assert.is((await get('bulk_scores_check', { ids: [...junk(49), row.platform_id].join(',') })).body.total, 1)
  const dropped = await get('bulk_scores_check', { ids: [...junk(50), row.platform_id].join(',') })
  assert.equal([dropped.body.success, dropped.body.total, dropped.body.data], [true, 0, []])
  const usernames = await get('bulk_scores_check', { usernames: [...junk(50), row.username].join(',') })
  assert.is(usernames.body.total, 0)
})

Bulk('entries :: non-numeric ids are skipped; none left still succeeds with total 0', async () => {
  const { get } = await setup()
  const [row] = await accounts()
  assert.equal((await get('bulk_scores_check', { ids: `abc,${row.platform_id},1.5` })).body.data, [row])
  const none = await get('bulk_scores_check', { ids: 'abc,def' })
  assert.equal(none.body, { success: true, total: 0, page: 1, size: 0, pages: 1, data: [] })
})

Bulk('validation :: neither ids nor usernames is success false with a message', async () => {
  const { get } = await setup()
  for (const params of [{}, { ids: '', usernames: '' }, { ids: '  ' }] as Record<string, string>[]) {
    const res = await get('bulk_scores_check', params)
    assert.is(res.body.success, false)
    assert.is(res.body.error.code, 'invalid_params')
    assert.is(res.body.message, 'ids or usernames is required')
    await assertMatchesOpenApi('bulk_scores_check', res)
  }
})

paginationCases(Bulk, 'bulk_scores_check', async () => ({ ids: (await accounts()).map((r) => r.platform_id).join(',') }), { default: 10, max: 50 }, 'data')

Bulk.run()
