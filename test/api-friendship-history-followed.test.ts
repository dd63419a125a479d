import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { accountResolutionCases } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { paginationCases } from './_pagination.ts'
import { setup } from './_setup.ts'

const Followed = suite('friendshipHistory/followed')
const OP = 'friendshipHistory/followed'

/** The target with the most incoming events (memoised). */
let busiest: Promise<string> | null = null
function busiestTarget(): Promise<string> {
  busiest ??= (async () => {
    const [row] = await (await setup()).query<{ id: string }>(
      `SELECT target_id::VARCHAR AS id FROM friendship_followed GROUP BY target_id ORDER BY count(*) DESC, target_id LIMIT 1`,
    )
    return row.id
  })()
  return busiest
}

/**
 * Expected rows by SQL, newest first (ties as stored: follower id, action). `joins` may multiply rows, as the
 * spec's duplicate rule says a join over the filter ids does.
 */
async function expected(targetId: string, where = 'true', joins = '') {
  const { query } = await setup()
  return query(`
    SELECT e.action, a.platform_id::VARCHAR AS platform_id, a.username, coalesce(a.name, '') AS name, a.platform_score,
           a.followers_count::DOUBLE AS followers_count, a.description, a.profile_image,
           coalesce((SELECT list({'id': t.tag_id, 'name': t.name} ORDER BY t.tag_id) FROM account_tags x JOIN tags t USING (tag_id)
                     WHERE x.account_idx = a.account_idx), []) AS tags,
           coalesce((SELECT list({'id': c.category_id, 'name': c.name} ORDER BY c.category_id) FROM account_categories x
                     JOIN categories c USING (category_id) WHERE x.account_idx = a.account_idx), []) AS categories,
           strftime(e.event_date, '%Y-%m-%d') AS created_at
    FROM friendship_followed e JOIN accounts a ON a.account_idx = e.follower_idx ${joins}
    WHERE e.target_id = '${targetId}'::UBIGINT AND ${where}
    ORDER BY e.event_date DESC, e.follower_id, e.action`)
}

/** Every page of `size` rows, concatenated. */
async function allPages(params: Record<string, string | number>, size = 3) {
  const { get } = await setup()
  const rows = []
  for (let page = 1; ; page++) {
    const res = await get(OP, { ...params, size, page })
    assert.is(res.body.success, true, JSON.stringify(res.body))
    rows.push(...res.body.data)
    if (page >= res.body.pages) return { total: res.body.total, rows }
  }
}

Followed('happy :: smart followers’ follow events of the target, newest first, with profile, labels and event date', async () => {
  const { get, query } = await setup()
  const target = await busiestTarget()
  const rows = await expected(target)
  assert.ok(rows.length > 3, 'the busiest target needs several events')
  const res = await get(OP, { platform_id: target, size: 25 })
  assert.is(res.body.total, rows.length)
  assert.equal(res.body.data, rows.slice(0, 25))
  assert.ok(rows.some((r) => r.action === 'Followed'))
  const [{ smart }] = await query(`
    SELECT bool_and(a.is_monitored AND a.is_active AND NOT a.is_suspended) AS smart
    FROM friendship_followed e JOIN accounts a ON a.account_idx = e.follower_idx`)
  assert.is(smart, true, 'only active, non-suspended, monitored followers are logged')
  await assertMatchesOpenApi(OP, res)
})

Followed('happy :: both actions appear, ids are strings and dates are YYYY-MM-DD', async () => {
  const { get, query } = await setup()
  const [row] = await query<{ id: string }>(`
    SELECT target_id::VARCHAR AS id FROM friendship_followed GROUP BY target_id
    HAVING count(DISTINCT action) = 2 ORDER BY count(*) DESC, target_id LIMIT 1`)
  assert.ok(row, 'the tiny snapshot needs a target with follows and unfollows')
  const { rows } = await allPages({ platform_id: row.id })
  assert.equal(rows, await expected(row.id))
  assert.equal([...new Set(rows.map((r) => r.action))].sort(), ['Followed', 'Unfollowed'])
  for (const r of rows) {
    assert.type(r.platform_id, 'string')
    assert.match(r.created_at, /^\d{4}-\d{2}-\d{2}$/)
  }
})

Followed('date :: keeps the events of that calendar day', async () => {
  const { get, query } = await setup()
  const target = await busiestTarget()
  const [{ day }] = await query(`
    SELECT strftime(event_date, '%Y-%m-%d') AS day FROM friendship_followed WHERE target_id = '${target}'::UBIGINT
    GROUP BY event_date ORDER BY count(*) DESC, event_date DESC LIMIT 1`)
  const res = await get(OP, { platform_id: target, date: day, size: 25 })
  const rows = await expected(target, `e.event_date = DATE '${day}'`)
  assert.ok(rows.length > 0 && rows.length < (await expected(target)).length)
  assert.is(res.body.total, rows.length)
  assert.equal(res.body.data, rows)
  const empty = await get(OP, { platform_id: target, date: '1999-01-01' })
  assert.is(empty.body.total, 0)
  assert.equal(empty.body.data, [])
})

Followed('validation :: any other date format fails with the spec’s message', async () => {
  const { get } = await setup()
  const target = await busiestTarget()
  for (const date of ['2026-1-05', '20261105', '2026/11/05', '05-11-2026', '2026-02-30', '2026-11-05T00:00:00Z', 'today']) {
    const res = await get(OP, { platform_id: target, date })
    assert.is(res.body.success, false, date)
    assert.is(res.body.error.code, 'invalid_params')
    assert.is(res.body.message, 'Invalid date format. Use YYYY-MM-DD.')
    await assertMatchesOpenApi(OP, res)
  }
})

/** A target and two tag ids / two category ids that one of its followers carries together. */
async function duplicateCase() {
  const { query } = await setup()
  const [row] = await query<{ id: string; t1: number; t2: number; c1: number; c2: number }>(`
    SELECT e.target_id::VARCHAR AS id, t1.tag_id AS t1, t2.tag_id AS t2, c1.category_id AS c1, c2.category_id AS c2
    FROM friendship_followed e
    JOIN account_tags t1 ON t1.account_idx = e.follower_idx
    JOIN account_tags t2 ON t2.account_idx = e.follower_idx AND t2.tag_id > t1.tag_id
    JOIN account_categories c1 ON c1.account_idx = e.follower_idx
    JOIN account_categories c2 ON c2.account_idx = e.follower_idx AND c2.category_id > c1.category_id
    GROUP BY ALL ORDER BY count(*) DESC, id, t1, t2, c1, c2 LIMIT 1`)
  assert.ok(row, 'the tiny snapshot needs a follower with two tags and two categories')
  return row
}

Followed('filters :: tag_ids keeps followers with any of the tags, one row per matching id (total inflated)', async () => {
  const { id, t1, t2 } = await duplicateCase()
  const rows = await expected(id, 'true', `JOIN account_tags ft ON ft.account_idx = a.account_idx AND ft.tag_id IN (${t1}, ${t2})`)
  const distinct = await expected(id, `EXISTS (SELECT 1 FROM account_tags ft WHERE ft.account_idx = a.account_idx AND ft.tag_id IN (${t1}, ${t2}))`)
  assert.ok(rows.length > distinct.length, 'a follower with both tags appears twice')
  const got = await allPages({ platform_id: id, tag_ids: `${t1},${t2}` })
  assert.is(got.total, rows.length)
  assert.equal(got.rows, rows)
  // one id: no duplicates
  const single = await allPages({ platform_id: id, tag_ids: String(t1) })
  assert.equal(single.rows, await expected(id, 'true', `JOIN account_tags ft ON ft.account_idx = a.account_idx AND ft.tag_id = ${t1}`))
})

Followed('filters :: category_ids duplicates likewise, and both lists multiply (a join over each)', async () => {
  const { id, t1, t2, c1, c2 } = await duplicateCase()
  const byCategory = await expected(id, 'true', `JOIN account_categories fc ON fc.account_idx = a.account_idx AND fc.category_id IN (${c1}, ${c2})`)
  const got = await allPages({ platform_id: id, category_ids: `${c1},${c2}` })
  assert.is(got.total, byCategory.length)
  assert.equal(got.rows, byCategory)
  const both = await expected(
    id,
    'true',
    `JOIN account_tags ft ON ft.account_idx = a.account_idx AND ft.tag_id IN (${t1}, ${t2})
     JOIN account_categories fc ON fc.account_idx = a.account_idx AND fc.category_id IN (${c1}, ${c2})`,
  )
  const combined = await allPages({ platform_id: id, tag_ids: `${t1},${t2}`, category_ids: `${c1},${c2}` })
  assert.ok(both.length >= 4, 'the follower with both tags and both categories appears four times')
  assert.is(combined.total, both.length)
  assert.equal(combined.rows, both)
})

Followed('filters :: a non-numeric element ignores the whole list; empty elements are skipped', async () => {
  const { get } = await setup()
  const { id, t1, t2, c1 } = await duplicateCase()
  const unfiltered = (await get(OP, { platform_id: id, size: 25 })).body
  for (const params of [{ tag_ids: `${t1},x` }, { tag_ids: `${t1}, 2.5` }, { category_ids: `abc,${c1}` }, { tag_ids: ',,' }] as Record<string, string>[]) {
    assert.equal((await get(OP, { platform_id: id, size: 25, ...params })).body, unfiltered, JSON.stringify(params))
  }
  const clean = (await get(OP, { platform_id: id, size: 25, tag_ids: `${t1},${t2}` })).body
  assert.equal((await get(OP, { platform_id: id, size: 25, tag_ids: ` ,${t1},, ${t2} ,` })).body, clean)
  const none = await get(OP, { platform_id: id, tag_ids: '999999' })
  assert.is(none.body.total, 0)
  assert.is(none.body.pages, 1)
})

accountResolutionCases(Followed, OP, 'precedence')
/**
 * Pagination over the most rows the tiny snapshot offers: every tag id and every category id, so each event counts
 * once per (tag, category) pair of its follower (the duplicate rule), more than the default page size. The newest
 * event may repeat at most twice, so the second page of two starts with another row.
 */
async function manyRows() {
  const { query } = await setup()
  const [row] = await query<{ id: string; tags: string; categories: string }>(`
    WITH copies AS (
      SELECT e.*,
             (SELECT count(*) FROM account_tags x WHERE x.account_idx = e.follower_idx) *
             (SELECT count(*) FROM account_categories x WHERE x.account_idx = e.follower_idx) AS k
      FROM friendship_followed e),
    listed AS (
      SELECT target_id, k, row_number() OVER (PARTITION BY target_id ORDER BY event_date DESC, follower_id, action) AS rn
      FROM copies WHERE k > 0)
    SELECT target_id::VARCHAR AS id, (SELECT string_agg(tag_id::VARCHAR, ',') FROM tags) AS tags,
           (SELECT string_agg(category_id::VARCHAR, ',') FROM categories) AS categories
    FROM listed GROUP BY target_id HAVING max(k) FILTER (WHERE rn = 1) <= 2
    ORDER BY sum(k) DESC, target_id LIMIT 1`)
  return { platform_id: row.id, tag_ids: row.tags, category_ids: row.categories }
}
paginationCases(Followed, OP, manyRows, { default: 10, max: 25 }, 'data')

Followed.run()
