import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { PLACEHOLDER_PROFILE_IMAGE_URL } from '../server/operations/friendship-history-following.ts'
import { accountResolutionCases, type Picked } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { paginationCases } from './_pagination.ts'
import { setup } from './_setup.ts'

const Following = suite('friendshipHistory/following')
const OP = 'friendshipHistory/following'

/** The source with the most outgoing events that also follows untagged and uncategorised accounts (memoised). */
let busiest: Promise<string> | null = null
function busiestSource(): Promise<string> {
  busiest ??= (async () => {
    const [row] = await (await setup()).query<{ id: string }>(`
      SELECT e.source_id::VARCHAR AS id FROM friendship_following e
      GROUP BY e.source_id
      HAVING bool_or(NOT EXISTS (SELECT 1 FROM account_tags x WHERE x.account_idx = e.followed_idx))
         AND bool_or(NOT EXISTS (SELECT 1 FROM account_categories x WHERE x.account_idx = e.followed_idx))
         AND count(DISTINCT e.action) = 2
      ORDER BY count(*) DESC, e.source_id LIMIT 1`)
    assert.ok(row, 'the tiny snapshot needs a source following untagged accounts')
    return row.id
  })()
  return busiest
}

/**
 * Expected rows by SQL: action (`Following` < `Unfollowing`), then platform_id as a string; the score is the main
 * one unless it is 0, then the graph-side one; no image → the placeholder.
 */
async function expected(sourceId: string, where = 'true') {
  const { query } = await setup()
  return query(`
    SELECT e.action, a.platform_id::VARCHAR AS platform_id, a.username, a.name, a.description,
           CASE WHEN a.platform_score = 0 THEN coalesce(a.graph_score, 0) ELSE a.platform_score END AS platform_score,
           a.followers_count::DOUBLE AS followers_count,
           coalesce(a.profile_image, '${PLACEHOLDER_PROFILE_IMAGE_URL}') AS profile_image_url,
           strftime(e.event_date, '%Y-%m-%d') AS created_at,
           coalesce((SELECT list({'id': t.tag_id, 'name': t.name} ORDER BY t.tag_id) FROM account_tags x JOIN tags t USING (tag_id)
                     WHERE x.account_idx = a.account_idx), []) AS tags,
           coalesce((SELECT list({'id': c.category_id, 'name': c.name} ORDER BY c.category_id) FROM account_categories x
                     JOIN categories c USING (category_id) WHERE x.account_idx = a.account_idx), []) AS categories
    FROM friendship_following e JOIN accounts a ON a.account_idx = e.followed_idx
    WHERE e.source_id = '${sourceId}'::UBIGINT AND ${where}
    ORDER BY e.action, a.platform_id::VARCHAR, e.event_date DESC`)
}

const hasTagIn = (ids: number[]) =>
  `EXISTS (SELECT 1 FROM account_tags x WHERE x.account_idx = a.account_idx AND x.tag_id IN (${ids.join(',')}))`
const hasCategoryIn = (ids: number[]) =>
  `EXISTS (SELECT 1 FROM account_categories x WHERE x.account_idx = a.account_idx AND x.category_id IN (${ids.join(',')}))`

Following('happy :: the whole log by action then platform_id as a string, with profile, labels and event date', async () => {
  const { get } = await setup()
  const source = await busiestSource()
  const rows = await expected(source)
  assert.ok(rows.length > 10, 'the busiest source needs more events than a default page')
  const res = await get(OP, { platform_id: source, size: 25 })
  assert.is(res.body.total, rows.length)
  assert.equal(res.body.data, rows.slice(0, 25))
  await assertMatchesOpenApi(OP, res)
})

Following('order :: platform_id is compared as a string (a short id sorts after a longer one starting with a lower digit)', async () => {
  const { get } = await setup()
  const source = await busiestSource()
  const data = (await get(OP, { platform_id: source, size: 25 })).body.data as { action: string; platform_id: string }[]
  for (let i = 1; i < data.length; i++) {
    const [prev, next] = [data[i - 1], data[i]]
    if (prev.action === next.action) assert.ok(prev.platform_id <= next.platform_id, `${prev.platform_id} ≤ ${next.platform_id}`)
    else assert.ok(prev.action === 'Following' && next.action === 'Unfollowing')
  }
  const lengths = new Set(data.map((r) => r.platform_id.length))
  assert.ok(lengths.size > 1, 'ids of several lengths make the string order visible')
})

Following('rows :: only tracked accounts with a name; no image → the fixed placeholder URL', async () => {
  const { get, query } = await setup()
  const [{ ok }] = await query(`
    SELECT bool_and(a.is_tracked AND coalesce(a.name, '') <> '') AS ok
    FROM friendship_following e JOIN accounts a ON a.account_idx = e.followed_idx`)
  assert.is(ok, true)
  const [row] = await query<{ id: string }>(`
    SELECT e.source_id::VARCHAR AS id FROM friendship_following e JOIN accounts a ON a.account_idx = e.followed_idx
    WHERE a.profile_image IS NULL GROUP BY e.source_id ORDER BY count(*) DESC, e.source_id LIMIT 1`)
  assert.ok(row, 'the tiny snapshot needs a followed account without an image')
  const res = await get(OP, { platform_id: row.id, size: 25 })
  assert.equal(res.body.data, (await expected(row.id)).slice(0, 25))
  assert.ok(res.body.data.some((r: any) => r.profile_image_url === PLACEHOLDER_PROFILE_IMAGE_URL))
  for (const r of res.body.data) assert.type(r.profile_image_url, 'string')
})

Following('date :: keeps the events of that calendar day', async () => {
  const { get, query } = await setup()
  const source = await busiestSource()
  const [{ day }] = await query(`
    SELECT strftime(event_date, '%Y-%m-%d') AS day FROM friendship_following WHERE source_id = '${source}'::UBIGINT
    GROUP BY event_date ORDER BY count(*) DESC, event_date DESC LIMIT 1`)
  const rows = await expected(source, `e.event_date = DATE '${day}'`)
  assert.ok(rows.length > 0)
  const res = await get(OP, { platform_id: source, date: day, size: 25 })
  assert.is(res.body.total, rows.length)
  assert.equal(res.body.data, rows)
})

Following('validation :: any other date format fails with the spec’s message', async () => {
  const { get } = await setup()
  const source = await busiestSource()
  for (const date of ['2026-11-5', '2026.11.05', '2026-13-01', 'yesterday']) {
    const res = await get(OP, { platform_id: source, date })
    assert.is(res.body.success, false, date)
    assert.is(res.body.error.code, 'invalid_params')
    assert.is(res.body.message, 'Invalid date format. Use YYYY-MM-DD.')
  }
})

Following('filters :: tag_ids keeps followed accounts with any tag, once each; untagged accounts are excluded', async () => {
  const { get, query } = await setup()
  const source = await busiestSource()
  const tagIds = (
    await query<{ tag_id: number }>(`
      SELECT x.tag_id FROM friendship_following e JOIN account_tags x ON x.account_idx = e.followed_idx
      WHERE e.source_id = '${source}'::UBIGINT GROUP BY x.tag_id ORDER BY count(*) DESC, x.tag_id LIMIT 3`)
  ).map((r) => r.tag_id)
  assert.is(tagIds.length, 3)
  const rows = await expected(source, hasTagIn(tagIds))
  assert.ok(rows.length > 0 && rows.length < (await expected(source)).length)
  const res = await get(OP, { platform_id: source, tag_ids: tagIds.join(','), size: 25 })
  assert.is(res.body.total, rows.length)
  assert.equal(res.body.data, rows)
  assert.ok(res.body.data.every((r: any) => r.tags.length > 0))
  const keys = res.body.data.map((r: any) => `${r.action}:${r.platform_id}:${r.created_at}`)
  assert.is(new Set(keys).size, keys.length, 'no duplicate rows')
})

Following('filters :: category_ids likewise, AND with tag_ids; uncategorised accounts are excluded', async () => {
  const { get, query } = await setup()
  const source = await busiestSource()
  const categoryIds = (await query<{ id: number }>(`SELECT category_id AS id FROM categories ORDER BY 1`)).map((r) => r.id)
  const rows = await expected(source, hasCategoryIn(categoryIds))
  assert.ok(rows.length < (await expected(source)).length, 'uncategorised accounts are dropped by the filter')
  const res = await get(OP, { platform_id: source, category_ids: categoryIds.join(','), size: 25 })
  assert.is(res.body.total, rows.length)
  assert.equal(res.body.data, rows)
  const tagIds = (await query<{ id: number }>(`SELECT tag_id AS id FROM tags ORDER BY 1`)).map((r) => r.id)
  const both = await get(OP, { platform_id: source, category_ids: categoryIds.join(','), tag_ids: tagIds.join(','), size: 25 })
  assert.equal(both.body.data, await expected(source, `${hasCategoryIn(categoryIds)} AND ${hasTagIn(tagIds)}`))
})

Following('filters :: a non-numeric element ignores the whole list; empty elements are skipped', async () => {
  const { get } = await setup()
  const source = await busiestSource()
  const unfiltered = (await get(OP, { platform_id: source, size: 25 })).body
  for (const params of [{ tag_ids: '1,x' }, { category_ids: '1;2' }, { category_ids: ' , ' }] as Record<string, string>[]) {
    assert.equal((await get(OP, { platform_id: source, size: 25, ...params })).body, unfiltered, JSON.stringify(params))
  }
  const clean = (await get(OP, { platform_id: source, size: 25, category_ids: '1,3' })).body
  assert.equal((await get(OP, { platform_id: source, size: 25, category_ids: ',1, ,3,' })).body, clean)
})

/** Sources with outgoing events: the default picks (accounts with smart followers) may follow no tracked account. */
let sources: Promise<Picked> | null = null
function pickSources(): Promise<Picked> {
  sources ??= (async () => {
    const { query } = await setup()
    const hasLog = (alias: string) => `EXISTS (SELECT 1 FROM friendship_following f WHERE f.source_idx = ${alias}.account_idx)`
    const busy = await query<{ id: string; username: string }>(`
      SELECT platform_id::VARCHAR AS id, username FROM accounts a WHERE ${hasLog('a')}
      ORDER BY (SELECT count(*) FROM friendship_following f WHERE f.source_idx = a.account_idx) DESC, platform_id LIMIT 2`)
    const [slug] = await query<{ id: string; slug: string }>(`
      SELECT platform_id::VARCHAR AS id, slug FROM accounts a
      WHERE slug IS NOT NULL AND slug <> lower(username) AND ${hasLog('a')}
        AND NOT EXISTS (SELECT 1 FROM accounts o WHERE lower(o.username) = a.slug)
      ORDER BY platform_id LIMIT 1`)
    const [previous] = await query<{ id: string; old: string }>(`
      SELECT p.platform_id::VARCHAR AS id, p.username AS old FROM previous_usernames p JOIN accounts a USING (account_idx)
      WHERE ${hasLog('a')}
        AND NOT EXISTS (SELECT 1 FROM accounts o WHERE lower(o.username) = lower(p.username) OR o.slug = lower(p.username))
        AND NOT EXISTS (SELECT 1 FROM previous_usernames q WHERE lower(q.username) = lower(p.username) AND q.account_idx <> p.account_idx)
      ORDER BY p.platform_id LIMIT 1`)
    assert.is(busy.length, 2)
    assert.ok(slug && previous, 'the tiny snapshot needs a source with a distinct slug and a renamed source')
    return { a: busy[0], b: busy[1], slug, previous }
  })()
  return sources
}

accountResolutionCases(Following, OP, 'precedence', {}, pickSources)
paginationCases(Following, OP, async () => ({ platform_id: await busiestSource() }), { default: 10, max: 25 }, 'data')

Following.run()
