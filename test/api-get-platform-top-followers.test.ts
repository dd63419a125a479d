import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { accountResolutionCases, pickAccounts } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { setup } from './_setup.ts'

const TopFollowers = suite('get_platform_top_followers')
const OP = 'get_platform_top_followers'

/** get_followers by score, highest first, with its envelope's array key renamed `data`. */
async function expected(params: Record<string, string | number>) {
  const { get } = await setup()
  const { top_followers, ...envelope } = (await get('get_followers', { ...params, by: 'score', sort: 'desc' })).body
  return { ...envelope, data: top_followers }
}

TopFollowers('compat :: smart followers by score, highest first, under data, with the pagination envelope', async () => {
  const { get, query } = await setup()
  const { a, b } = await pickAccounts()
  for (const target of [a, b]) {
    const res = await get(OP, { platform_id: target.id })
    assert.equal(res.body, await expected({ platform_id: target.id }))
    assert.equal(Object.keys(res.body), ['success', 'total', 'page', 'size', 'pages', 'data'])
    const [{ n }] = await query(`SELECT count(*)::INTEGER AS n FROM smart_followers WHERE target_id = '${target.id}'::UBIGINT`)
    assert.is(res.body.total, n)
    const scores = res.body.data.map((row: { platform_score: number }) => row.platform_score)
    assert.equal(scores, [...scores].sort((x, y) => y - x))
    for (const row of res.body.data) {
      assert.match(row.platform_id, /^\d+$/)
      assert.is(typeof row.platform_score, 'number')
    }
    await assertMatchesOpenApi(OP, res)
  }
})

TopFollowers('compat :: period is accepted and ignored; sort, by and filters do not change the list', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  const plain = (await get(OP, { platform_id: a.id, size: 5, page: 2 })).body
  assert.equal(plain, await expected({ platform_id: a.id, size: 5, page: 2 }))
  const extras: Record<string, string>[] = [{ period: '7d' }, { period: '30d' }, { period: 'whenever' }, { sort: 'asc', by: 'followers' }, { tag_id: 'x' }]
  for (const extra of extras) {
    assert.equal((await get(OP, { platform_id: a.id, size: 5, page: 2, ...extra })).body, plain, JSON.stringify(extra))
  }
})

TopFollowers('pagination :: get_followers’ sizes: default 10, at most 25', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  assert.is((await get(OP, { platform_id: a.id })).body.data.length, Math.min(10, (await expected({ platform_id: a.id })).total))
  const capped = (await get(OP, { platform_id: a.id, size: 1000 })).body
  assert.ok(capped.data.length <= 25)
  assert.equal(capped, await expected({ platform_id: a.id, size: 1000 }))
})

TopFollowers('compat :: its own rate-limit bucket', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  const res = await get(OP, { platform_id: a.id })
  assert.match(res.headers.get('ratelimit-policy')!, /"api-get-platform-top-followers";q=/)
})

accountResolutionCases(TopFollowers, OP, 'fallback')

TopFollowers.run()
