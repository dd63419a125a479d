import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { accountResolutionCases, pickAccounts } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { paginationCases } from './_pagination.ts'
import { setup } from './_setup.ts'

const SmartFeed = suite('get_smart_mentions_feed')
const OP = 'get_smart_mentions_feed'
const BY = ['created_at', 'favorites', 'retweets', 'replies', 'views', 'score']

/** Every item of a feed through the API (pages of 25). */
async function all(operation: string, params: Record<string, string | number>) {
  const { get } = await setup()
  const first = (await get(operation, { ...params, size: 25 })).body
  assert.is(first.success, true, JSON.stringify(first))
  const items = [...first.mentions]
  for (let page = 2; page <= first.pages; page++) items.push(...(await get(operation, { ...params, size: 25, page })).body.mentions)
  assert.is(items.length, first.total)
  return items
}

/** platform_ids of the smart accounts (monitored, active, not suspended), by SQL. */
async function smartIds(): Promise<Set<string>> {
  const { query } = await setup()
  return new Set((await query(`SELECT platform_id::VARCHAR AS id FROM accounts WHERE is_smart`)).map((r) => r.id))
}

/** get_mentions_feed's items with a smart author, in its order: what the smart feed must answer. */
async function restricted(params: Record<string, string | number>) {
  const smart = await smartIds()
  return (await all('get_mentions_feed', params)).filter((m) => smart.has(m.author.platform_id))
}

SmartFeed('happy :: get_mentions_feed restricted to smart authors, newest first; total by SQL', async () => {
  const { get, query } = await setup()
  const { a, b } = await pickAccounts()
  for (const target of [a, b]) {
    const items = await all(OP, { platform_id: target.id })
    const [row] = await query(`
      SELECT count(*)::INTEGER AS n FROM mentions m JOIN accounts x ON x.account_idx = m.author_idx
      WHERE x.is_smart AND m.target_id = '${target.id}'::UBIGINT`)
    assert.ok(row.n > 1, 'the busy accounts need several smart mentions')
    assert.is(items.length, row.n)
    assert.ok(items.length < (await all('get_mentions_feed', { platform_id: target.id })).length, 'some mentions are by other authors')
    assert.equal(items, await restricted({ platform_id: target.id }))
    await assertMatchesOpenApi(OP, await get(OP, { platform_id: target.id }))
  }
})

SmartFeed('sort :: every by, both ways, in get_mentions_feed’s order', async () => {
  const { a } = await pickAccounts()
  for (const by of BY) {
    for (const sort of ['desc', 'asc']) {
      const params = { platform_id: a.id, by, sort }
      assert.equal(await all(OP, params), await restricted(params), `${by} ${sort}`)
    }
  }
})

SmartFeed('filters :: tag_id, category_id and tag_category_id as in get_mentions_feed', async () => {
  const { query } = await setup()
  const { a } = await pickAccounts()
  const [labels] = await query(`
    WITH authors AS (SELECT m.author_idx AS account_idx FROM mentions m JOIN accounts x ON x.account_idx = m.author_idx
                     WHERE m.target_id = '${a.id}'::UBIGINT AND x.is_smart)
    SELECT (SELECT tag_id FROM account_tags JOIN authors USING (account_idx) GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) AS tag_id,
           (SELECT category_id FROM account_categories JOIN authors USING (account_idx) GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) AS category_id,
           (SELECT tag_category_id FROM account_tags JOIN authors USING (account_idx) GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) AS tag_category_id`)
  const unfiltered = (await all(OP, { platform_id: a.id })).length
  const filters: Record<string, number>[] = [
    { tag_id: labels.tag_id },
    { category_id: labels.category_id },
    { tag_category_id: labels.tag_category_id },
    { tag_id: labels.tag_id, category_id: labels.category_id },
  ]
  for (const filter of filters) {
    const params = { platform_id: a.id, ...filter }
    const items = await all(OP, params)
    assert.ok(items.length > 0 && items.length < unfiltered, JSON.stringify(filter))
    assert.equal(items, await restricted(params), JSON.stringify(filter))
  }
})

SmartFeed('validation :: the by message and the non-numeric filter quirk are get_mentions_feed’s', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  for (const by of ['Created_at', 'likes']) {
    const res = await get(OP, { platform_id: a.id, by })
    assert.is(res.body.error.code, 'invalid_params')
    assert.is(res.body.message, 'Sorting is only possible by [created_at|favorites|retweets|replies|views|score]')
    await assertMatchesOpenApi(OP, res)
  }
  for (const name of ['tag_id', 'category_id', 'tag_category_id']) {
    const res = await get(OP, { platform_id: a.id, [name]: 'abc' })
    assert.is(res.body.error.code, 'server_error')
    assert.match(res.body.message, /^Unexpected error/)
  }
})

SmartFeed('none :: an account no smart author mentioned has an empty feed', async () => {
  const { get, query } = await setup()
  const [quiet] = await query(`
    SELECT platform_id::VARCHAR AS id FROM accounts x
    WHERE EXISTS (SELECT 1 FROM mentions m WHERE m.target_idx = x.account_idx)
      AND NOT EXISTS (SELECT 1 FROM mentions m JOIN accounts a ON a.account_idx = m.author_idx WHERE a.is_smart AND m.target_idx = x.account_idx)
    ORDER BY platform_id LIMIT 1`)
  assert.ok(quiet, 'the tiny snapshot needs an account mentioned only by other authors')
  const res = await get(OP, { platform_id: quiet.id })
  assert.equal(res.body, { success: true, total: 0, page: 1, size: 0, pages: 1, mentions: [] })
  await assertMatchesOpenApi(OP, res)
})

accountResolutionCases(SmartFeed, OP, 'fallback')
paginationCases(SmartFeed, OP, async () => ({ platform_id: (await pickAccounts()).a.id }), { default: 10, max: 25 }, 'mentions')

SmartFeed.run()
