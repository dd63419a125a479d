import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { accountResolutionCases, pickAccounts } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { paginationCases } from './_pagination.ts'
import { setup } from './_setup.ts'

const GetFollowers = suite('get_followers')

/** The expected rows, computed by SQL from the snapshot: `order` is an ORDER BY over smart_followers (sf). */
async function expected(targetId: string, order: string, where = 'true', limit = 25, offset = 0) {
  const { query } = await setup()
  return query(`
    SELECT a.platform_id::VARCHAR AS platform_id, a.username, coalesce(a.name, '') AS name, a.description, a.platform_score,
           a.followers_count::DOUBLE AS followers_count, a.profile_image,
           coalesce((SELECT list({'id': t.tag_id, 'name': t.name} ORDER BY t.tag_id) FROM account_tags atg JOIN tags t USING (tag_id)
                     WHERE atg.account_idx = a.account_idx), []) AS tags,
           coalesce((SELECT list({'id': c.category_id, 'name': c.name} ORDER BY c.category_id) FROM account_categories ac
                     JOIN categories c USING (category_id) WHERE ac.account_idx = a.account_idx), []) AS categories,
           strftime(sf.subscribed_at, '%Y-%m-%dT%H:%M:%S.%g') || 'Z' AS subscribed_at
    FROM smart_followers sf JOIN accounts a ON a.account_idx = sf.follower_idx
    WHERE sf.target_id = '${targetId}'::UBIGINT AND ${where}
    ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`)
}

const ORDERS: Record<string, [string, string]> = {
  score: ['sf.follower_score DESC, sf.follower_id ASC', 'sf.follower_score ASC, sf.follower_id DESC'],
  followers: [
    'sf.follower_followers_count DESC, sf.follower_id ASC',
    'sf.follower_followers_count ASC, sf.follower_id DESC',
  ],
  subscribed_at: ['sf.subscribed_at DESC, sf.follower_id ASC', 'sf.subscribed_at ASC, sf.follower_id DESC'],
}

GetFollowers('happy :: smart followers by score desc with profile, tags, categories and subscribed_at', async () => {
  const { get, query } = await setup()
  const { a } = await pickAccounts()
  const res = await get('get_followers', { platform_id: a.id, size: 25 })
  const [{ total }] = await query(`SELECT count(*)::INTEGER AS total FROM smart_followers WHERE target_id = '${a.id}'::UBIGINT`)
  assert.is(res.body.total, total)
  assert.equal(res.body.top_followers, await expected(a.id, ORDERS.score[0]))
  const [{ smart }] = await query(`SELECT bool_and(is_smart) AS smart FROM smart_followers JOIN accounts ON account_idx = follower_idx WHERE target_id = '${a.id}'::UBIGINT`)
  assert.is(smart, true)
  await assertMatchesOpenApi('get_followers', res)
})

for (const [by, [desc, asc]] of Object.entries(ORDERS)) {
  GetFollowers(`sort :: by=${by} descending and ascending`, async () => {
    const { get } = await setup()
    const { a } = await pickAccounts()
    const down = await get('get_followers', { platform_id: a.id, by, sort: 'desc', size: 25 })
    assert.equal(down.body.top_followers, await expected(a.id, desc))
    const up = await get('get_followers', { platform_id: a.id, by, sort: 'asc', size: 25 })
    assert.equal(up.body.top_followers, await expected(a.id, asc))
  })
}

GetFollowers('sort :: asc/ascending in any case is ascending, anything else descending', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  const ids = async (sort: string) =>
    (await get('get_followers', { platform_id: a.id, sort, size: 25 })).body.top_followers.map((f: any) => f.platform_id)
  const ascending = await ids('asc')
  const descending = await ids('desc')
  assert.not.equal(ascending, descending)
  for (const sort of ['ASC', 'Ascending', 'ascending']) assert.equal(await ids(sort), ascending, sort)
  for (const sort of ['descending', 'up', '', ' asc', 'asc ']) assert.equal(await ids(sort), descending, sort)
})

GetFollowers('validation :: unknown or wrongly cased by values fail with the spec’s message', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  for (const by of ['alpha', 'Score', 'followers_count']) {
    const res = await get('get_followers', { platform_id: a.id, by })
    assert.is(res.body.success, false)
    assert.is(res.body.error.code, 'invalid_params')
    assert.is(res.body.message, 'Sorting is only possible by [followers|score|subscribed_at]')
    await assertMatchesOpenApi('get_followers', res)
  }
})

GetFollowers('filters :: category_id, tag_id and tag_category_id keep matching followers, combined with AND', async () => {
  const { get, query } = await setup()
  const { a } = await pickAccounts()
  const [labels] = await query(`
    SELECT (SELECT category_id FROM account_categories ac JOIN smart_followers sf ON sf.follower_idx = ac.account_idx
            WHERE sf.target_id = '${a.id}'::UBIGINT GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) AS category_id,
           (SELECT tag_id FROM account_tags atg JOIN smart_followers sf ON sf.follower_idx = atg.account_idx
            WHERE sf.target_id = '${a.id}'::UBIGINT GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) AS tag_id,
           (SELECT atg.tag_category_id FROM account_tags atg JOIN smart_followers sf ON sf.follower_idx = atg.account_idx
            WHERE sf.target_id = '${a.id}'::UBIGINT GROUP BY 1 ORDER BY count(DISTINCT atg.account_idx) DESC, 1 LIMIT 1) AS tag_category_id`)
  assert.ok(labels.category_id !== null && labels.tag_id !== null, 'the target’s followers need categories and tags')
  const hasCategory = `EXISTS (SELECT 1 FROM account_categories x WHERE x.account_idx = sf.follower_idx AND x.category_id = ${labels.category_id})`
  const hasTag = `EXISTS (SELECT 1 FROM account_tags x WHERE x.account_idx = sf.follower_idx AND x.tag_id = ${labels.tag_id})`
  const hasTagCategory = `EXISTS (SELECT 1 FROM account_tags x WHERE x.account_idx = sf.follower_idx AND x.tag_category_id = ${labels.tag_category_id})`
  const cases: [Record<string, number>, string][] = [
    [{ category_id: labels.category_id }, hasCategory],
    [{ tag_id: labels.tag_id }, hasTag],
    [{ tag_category_id: labels.tag_category_id }, hasTagCategory],
    [{ category_id: labels.category_id, tag_id: labels.tag_id }, `${hasCategory} AND ${hasTag}`],
  ]
  for (const [filter, where] of cases) {
    const res = await get('get_followers', { platform_id: a.id, size: 25, ...filter })
    const rows = await expected(a.id, ORDERS.score[0], where, 100000)
    assert.is(res.body.total, rows.length, JSON.stringify(filter))
    assert.equal(res.body.top_followers, rows.slice(0, 25))
  }
})

GetFollowers('filters :: every order both ways, filtered and paged, with each follower’s own subscribed_at', async () => {
  const { get, query } = await setup()
  const { a } = await pickAccounts()
  const [{ tag_category_id }] = await query(`
    SELECT atg.tag_category_id FROM account_tags atg JOIN smart_followers sf ON sf.follower_idx = atg.account_idx
    WHERE sf.target_id = '${a.id}'::UBIGINT GROUP BY 1 ORDER BY count(DISTINCT atg.account_idx) DESC, 1 LIMIT 1`)
  const where = `EXISTS (SELECT 1 FROM account_tags x WHERE x.account_idx = sf.follower_idx AND x.tag_category_id = ${tag_category_id})`
  for (const [by, orders] of Object.entries(ORDERS)) {
    for (const [sort, order] of [['desc', orders[0]], ['asc', orders[1]]]) {
      const filtered = await get('get_followers', { platform_id: a.id, by, sort, tag_category_id, size: 4, page: 2 })
      const rows = await expected(a.id, order, where, 100000)
      assert.ok(rows.length > 8, 'the filter keeps several pages')
      assert.is(filtered.body.total, rows.length)
      assert.equal(filtered.body.top_followers, rows.slice(4, 8), `${by} ${sort} filtered`)
      const paged = await get('get_followers', { platform_id: a.id, by, sort, size: 7, page: 3 })
      assert.equal(paged.body.top_followers, await expected(a.id, order, 'true', 7, 14), `${by} ${sort} page 3`)
    }
  }
})

GetFollowers('filters :: a non-numeric filter surfaces as server_error "Unexpected error…", not invalid_params', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  for (const name of ['category_id', 'tag_id', 'tag_category_id']) {
    const res = await get('get_followers', { platform_id: a.id, [name]: 'abc' })
    assert.is(res.body.success, false)
    assert.is(res.body.error.code, 'server_error')
    assert.match(res.body.message, /^Unexpected error/)
  }
})

GetFollowers('filters :: the follower counts of filtered pages follow the filtered total', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  const all = await get('get_followers', { platform_id: a.id, tag_category_id: 999999, size: 5 })
  assert.is(all.body.total, 0)
  assert.is(all.body.pages, 1)
  assert.equal(all.body.top_followers, [])
})

accountResolutionCases(GetFollowers, 'get_followers', 'fallback')
paginationCases(GetFollowers, 'get_followers', async () => ({ platform_id: (await pickAccounts()).a.id }), { default: 10, max: 25 }, 'top_followers')

GetFollowers.run()
