import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { assertMatchesOpenApi } from './_openapi.ts'
import { paginationCases } from './_pagination.ts'
import { setup } from './_setup.ts'

const SmartFollows = suite('get_smart_follows')
const Alpha = suite('get_alpha')

/** Each `by` in descending and ascending order, written independently of the stored positions (ties by numeric id). */
const ORDERS: Record<string, [string, string]> = {
  alpha: [
    'new_alpha_followers_diff DESC, total_alpha_followers DESC, smart_follows.platform_id ASC',
    'new_alpha_followers_diff ASC, total_alpha_followers ASC, smart_follows.platform_id DESC',
  ],
  score: ['platform_score DESC, smart_follows.platform_id ASC', 'platform_score ASC, smart_follows.platform_id DESC'],
  followers: ['current_followers DESC, smart_follows.platform_id ASC', 'current_followers ASC, smart_follows.platform_id DESC'],
}

/** The list of one window and bucket by SQL, with the spec's item fields only. */
async function expected(days: number, bucket: string, order = ORDERS.alpha[0], limit = 100) {
  const { query } = await setup()
  return query(`
    SELECT platform_id::VARCHAR AS platform_id, username, name, description, profile_url, profile_image, blue_verified,
           platform_score, platform_score_diff, current_followers::DOUBLE AS current_followers,
           followers_diff::DOUBLE AS followers_diff, total_alpha_followers::DOUBLE AS total_alpha_followers,
           new_alpha_followers_diff::DOUBLE AS new_alpha_followers_diff,
           [{'name': coalesce(f.name, ''), 'username': coalesce(f.username, ''), 'image': coalesce(f.image, ''),
             'score': coalesce(f.score, 0), 'verified': coalesce(f.verified, false)} for f in top_alpha_followers] AS top_alpha_followers
    FROM smart_follows WHERE days = ${days} AND bucket = '${bucket}'
    ORDER BY ${order} LIMIT ${limit}`)
}

const listTotal = async (days: number, bucket: string) =>
  (await (await setup()).query(`SELECT count(*)::INTEGER AS n FROM smart_follows WHERE days = ${days} AND bucket = '${bucket}'`))[0].n

for (const [name, test, op] of [['smart follows', SmartFollows, 'get_smart_follows'], ['alpha', Alpha, 'get_alpha']] as const) {
  test(`happy :: defaults are days=7, bucket=all, by=alpha descending (${name})`, async () => {
    const { get } = await setup()
    const res = await get(op, { size: 100 })
    assert.is(res.body.days, 7)
    assert.is(res.body.bucket, 'all')
    const rows = await expected(7, 'all')
    assert.ok(rows.length > 10, 'the 7-day list needs more rows than a page')
    assert.is(res.body.total, await listTotal(7, 'all'))
    assert.ok(res.body.total <= 1000)
    assert.equal(res.body.data, rows)
    await assertMatchesOpenApi(op, res)
  })
}

SmartFollows('lists :: every window and bucket, with the applied days and bucket echoed', async () => {
  const { get } = await setup()
  for (const days of [1, 7, 30]) {
    for (const bucket of ['all', 'vc', 'inf', 'angels']) {
      const res = await get('get_smart_follows', { days, bucket, size: 100 })
      assert.is(res.body.days, days)
      assert.is(res.body.bucket, bucket)
      assert.is(res.body.total, await listTotal(days, bucket), `${days} ${bucket}`)
      assert.equal(res.body.data, await expected(days, bucket), `${days} ${bucket}`)
    }
  }
})

SmartFollows('bucket :: case-insensitive; unknown values fall back to all', async () => {
  const { get } = await setup()
  for (const [bucket, resolved] of [['VC', 'vc'], ['Inf', 'inf'], ['ANGELS', 'angels'], [' vc ', 'vc'], ['founders', 'all'], ['', 'all']]) {
    const res = await get('get_smart_follows', { days: 30, bucket, size: 100 })
    assert.is(res.body.bucket, resolved, bucket)
    assert.equal(res.body.data, await expected(30, resolved), bucket)
  }
})

SmartFollows('days :: non-numeric falls back to 7; another integer fails with the spec’s message', async () => {
  const { get } = await setup()
  for (const days of ['abc', '', 'seven', '0x1e', 'Infinity']) {
    const res = await get('get_smart_follows', { days, size: 100 })
    assert.is(res.body.days, 7, days)
    assert.equal(res.body.data, await expected(7, 'all'))
  }
  for (const days of ['2', '0', '-7', '14', '365']) {
    const res = await get('get_smart_follows', { days })
    assert.is(res.body.success, false, days)
    assert.is(res.body.error.code, 'invalid_params')
    assert.is(res.body.message, 'Days param is only available: 1|7|30')
    await assertMatchesOpenApi('get_smart_follows', res)
  }
})

SmartFollows('validation :: by is case-sensitive; other values fail with the spec’s message', async () => {
  const { get } = await setup()
  for (const by of ['Alpha', 'SCORE', 'followers_count', 'rank']) {
    const res = await get('get_smart_follows', { by })
    assert.is(res.body.success, false, by)
    assert.is(res.body.error.code, 'invalid_params')
    assert.is(res.body.message, 'Sorting is only possible by [score|followers|alpha]')
  }
})

for (const [by, [desc, asc]] of Object.entries(ORDERS)) {
  SmartFollows(`sort :: by=${by} descending and ascending`, async () => {
    const { get } = await setup()
    const down = await get('get_smart_follows', { days: 30, by, size: 100 })
    assert.equal(down.body.data, await expected(30, 'all', desc))
    const up = await get('get_smart_follows', { days: 30, by, sort: 'ascending', size: 100 })
    assert.equal(up.body.data, await expected(30, 'all', asc))
    assert.equal((await get('get_smart_follows', { days: 30, by, sort: 'ASC', size: 100 })).body, up.body)
  })
}

SmartFollows('sort :: the page is taken after sorting', async () => {
  const { get } = await setup()
  const res = await get('get_smart_follows', { days: 30, by: 'score', sort: 'asc', size: 5, page: 2 })
  assert.equal(res.body.data, (await expected(30, 'all', ORDERS.score[1], 10)).slice(5))
})

/** `"<bucket>";r=<remaining>` of the RateLimit header. */
function remaining(headers: Headers, bucket: string): number {
  const match = new RegExp(`"${bucket}";r=(\\d+)`).exec(headers.get('ratelimit') ?? '')
  assert.ok(match, `RateLimit header names ${bucket}: ${headers.get('ratelimit')}`)
  return Number(match![1])
}

Alpha('alias :: identical parameters and response to get_smart_follows', async () => {
  const { get } = await setup()
  for (const params of [{}, { days: 30, bucket: 'VC', by: 'score', sort: 'asc', size: 3, page: 2 }, { days: 1, by: 'followers' }, { days: 5 }, { by: 'x' }] as Record<string, string | number>[]) {
    assert.equal((await get('get_alpha', params)).body, (await get('get_smart_follows', params)).body, JSON.stringify(params))
  }
})

Alpha('alias :: deprecated in the OpenAPI document, with the same parameters', async () => {
  const { get } = await setup()
  const doc = (await get('/openapi.json')).body
  const alpha = doc.paths['/api/v1/get_alpha'].get
  const smart = doc.paths['/api/v1/get_smart_follows'].get
  assert.is(alpha.deprecated, true)
  assert.is(smart.deprecated, undefined)
  assert.equal(alpha.parameters, smart.parameters)
  assert.equal(alpha.responses, smart.responses)
  assert.equal(alpha.tags, ['Lists'])
})

Alpha('alias :: its own rate-limit bucket and its own cache entries', async () => {
  const { get } = await setup()
  const params = { days: 1, size: 4, nonce: `alias-${Date.now()}` }
  const smart1 = await get('get_smart_follows', params)
  assert.is(smart1.headers.get('x-cache'), 'MISS')
  assert.is((await get('get_smart_follows', params)).headers.get('x-cache'), 'HIT')
  const alpha1 = await get('get_alpha', params)
  assert.is(alpha1.headers.get('x-cache'), 'MISS', 'get_alpha does not answer from get_smart_follows’ cache')
  assert.is((await get('get_alpha', params)).headers.get('x-cache'), 'HIT')
  assert.is((await get('get_alpha', params)).headers.get('x-cache'), 'HIT')
  const smart3 = await get('get_smart_follows', params)
  assert.is(smart3.headers.get('x-cache'), 'HIT')
  assert.is(remaining(smart3.headers, 'api-get-smart-follows'), remaining(smart1.headers, 'api-get-smart-follows') - 2)
  assert.not.ok((smart3.headers.get('ratelimit') ?? '').includes('api-get-alpha'))
  assert.is(remaining((await get('get_alpha', params)).headers, 'api-get-alpha'), remaining(alpha1.headers, 'api-get-alpha') - 3)
})

paginationCases(SmartFollows, 'get_smart_follows', () => ({ days: 30 }), { default: 10, max: 100 }, 'data')
paginationCases(Alpha, 'get_alpha', () => ({ days: 30 }), { default: 10, max: 100 }, 'data')

SmartFollows.run()
Alpha.run()
