import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { assertMatchesOpenApi } from './_openapi.ts'
import { paginationCases } from './_pagination.ts'
import { scored } from './_scored.ts'
import { setup } from './_setup.ts'

const Trending = suite('get_trending')
const OP = 'get_trending'

/** The listed rows by SQL: trending ⋈ accounts, filters applied, then the 1000 largest growths; `order` over them. */
async function expected(days: number, metric: string, { where = 'true', descending = true } = {}) {
  const { query } = await scored()
  return query(`
    SELECT * EXCLUDE (rank) FROM (
      SELECT a.platform_id::VARCHAR AS platform_id, a.username, a.name, coalesce(a.description, '') AS description,
             a.profile_image, a.blue_verified, a.platform_score, t.platform_score_diff,
             a.smart_followers_count::INTEGER AS smart_followers_count, t.smart_followers_diff::INTEGER AS smart_followers_diff,
             a.followers_count::DOUBLE AS followers_count, t.rank
      FROM trending t JOIN accounts a USING (account_idx)
      WHERE t.days = ${days} AND t.metric = '${metric}' AND ${where}
      ORDER BY t.rank LIMIT 1000)
    ORDER BY rank ${descending ? 'ASC' : 'DESC'}`)
}

const hasCategory = (id: number) =>
  `EXISTS (SELECT 1 FROM account_categories c WHERE c.account_idx = t.account_idx AND c.category_id = ${id})`
const hasTag = (id: number) => `EXISTS (SELECT 1 FROM account_tags g WHERE g.account_idx = t.account_idx AND g.tag_id = ${id})`

/** Every row of the list, through the API (pages of 100). */
async function all(params: Record<string, string | number>) {
  const { get } = await scored()
  const first = (await get(OP, { ...params, size: 100 })).body
  const rows = [...first.data]
  for (let page = 2; page <= first.pages; page++) rows.push(...(await get(OP, { ...params, size: 100, page })).body.data)
  assert.is(rows.length, first.total)
  return rows
}

Trending('happy :: every days × by lists the positive growths, largest first, with the account fields', async () => {
  const { get } = await scored()
  for (const days of [1, 7, 30]) {
    for (const by of ['smart_followers', 'score']) {
      const rows = await expected(days, by)
      assert.ok(rows.length > 1, `${days}:${by} needs several rows`)
      assert.equal(await all({ days, by }), rows, `${days}:${by}`)
      const res = await get(OP, { days, by })
      assert.equal([res.body.days, res.body.by], [days, by])
      await assertMatchesOpenApi(OP, res)
    }
  }
})

Trending('growth :: score growth is today’s stored score minus the one `days` ago (none stored that day = 0)', async () => {
  const { query, today } = await scored()
  for (const days of [1, 7, 30]) {
    const growth = await query(`
      SELECT id::VARCHAR AS platform_id, diff FROM (
        SELECT n.platform_id AS id, round(n.platform_score - coalesce(o.platform_score, 0), 2) AS diff
        FROM score_history_daily n
        LEFT JOIN score_history_daily o ON o.account_idx = n.account_idx AND o.date = DATE '${today}' - ${days}
        WHERE n.date = DATE '${today}')
      WHERE diff > 0 ORDER BY diff DESC, id LIMIT 1000`)
    const rows = await all({ days, by: 'score' })
    assert.equal(rows.map((r) => [r.platform_id, Math.round(r.platform_score_diff * 100) / 100]), growth.map((g) => [g.platform_id, g.diff]))
    for (const r of rows) assert.ok(r.platform_score_diff > 0)
  }
})

Trending('growth :: smart_followers lists only accounts that gained smart followers', async () => {
  for (const days of [1, 7, 30]) for (const r of await all({ days })) assert.ok(r.smart_followers_diff > 0)
})

Trending('defaults :: days 7 and by smart_followers; non-numeric days is 7', async () => {
  const { get } = await scored()
  const explicit = (await get(OP, { days: 7, by: 'smart_followers' })).body
  assert.equal((await get(OP, {})).body, explicit)
  assert.equal((await get(OP, { days: 'abc', by: '' })).body, explicit)
})

Trending('sort :: asc, ascending (any case) reverse the list; anything else is descending', async () => {
  const { get } = await scored()
  for (const by of ['smart_followers', 'score']) {
    const reversed = await expected(30, by, { descending: false })
    for (const sort of ['asc', 'ASCENDING']) assert.equal(await all({ days: 30, by, sort }), reversed, `${by} ${sort}`)
    const descending = (await get(OP, { days: 30, by, size: 100 })).body
    for (const sort of ['desc', 'x']) assert.equal((await get(OP, { days: 30, by, sort, size: 100 })).body, descending)
  }
})

Trending('filters :: category_id and tag_id keep accounts carrying them (AND); non-numeric values are ignored', async () => {
  const { get, query } = await scored()
  const [label] = await query(`
    SELECT c.category_id, g.tag_id, count(*) AS n FROM trending t
    JOIN account_categories c USING (account_idx) JOIN account_tags g USING (account_idx)
    WHERE t.days = 30 AND t.metric = 'score' GROUP BY ALL ORDER BY n DESC, 1, 2 LIMIT 1`)
  assert.ok(label, 'the scored snapshot needs trending accounts with a category and a tag')
  const cases: [Record<string, string | number>, string][] = [
    [{ category_id: label.category_id }, hasCategory(label.category_id)],
    [{ tag_id: label.tag_id }, hasTag(label.tag_id)],
    [{ category_id: label.category_id, tag_id: label.tag_id }, `${hasCategory(label.category_id)} AND ${hasTag(label.tag_id)}`],
  ]
  const unfiltered = await expected(30, 'score')
  for (const [params, where] of cases) {
    const rows = await expected(30, 'score', { where })
    assert.ok(rows.length > 0 && rows.length < unfiltered.length, JSON.stringify(params))
    assert.equal(await all({ days: 30, by: 'score', ...params }), rows, JSON.stringify(params))
  }
  for (const params of [{ category_id: 'abc' }, { tag_id: 'x1' }, { category_id: '' }] as Record<string, string>[]) {
    assert.equal((await get(OP, { days: 30, by: 'score', ...params })).body, (await get(OP, { days: 30, by: 'score' })).body)
  }
  const none = (await get(OP, { days: 30, by: 'score', category_id: 999999 })).body
  assert.equal([none.total, none.data], [0, []])
})

Trending('days :: any other number fails with the spec’s message', async () => {
  const { get } = await scored()
  for (const days of [0, 2, 14, 31]) {
    const res = await get(OP, { days })
    assert.is(res.body.error.code, 'invalid_params')
    assert.is(res.body.message, 'Days param is only available: 1|7|30')
    await assertMatchesOpenApi(OP, res)
  }
})

Trending('by :: case-sensitive; other values fail with the spec’s message', async () => {
  const { get } = await scored()
  for (const by of ['Score', 'SMART_FOLLOWERS', 'alpha', 'followers']) {
    const res = await get(OP, { by })
    assert.is(res.body.error.code, 'invalid_params')
    assert.is(res.body.message, 'Sorting is only possible by [smart_followers|score]')
  }
})

Trending('snapshot :: without a score history the score metric is empty (no score days ago)', async () => {
  const { get } = await setup()
  for (const days of [1, 7, 30]) {
    const { body } = await get(OP, { days, by: 'score' })
    assert.equal([body.total, body.data], [0, []])
  }
})

paginationCases(Trending, OP, () => ({ days: 30, by: 'score' }), { default: 10, max: 100 }, 'data', scored)

Trending.run()
