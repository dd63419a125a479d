import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { accountResolutionCases, pickAccounts } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { paginationCases } from './_pagination.ts'
import { setup } from './_setup.ts'

const Mentioners = suite('get_mentioners')
const OP = 'get_mentioners'
const DAY_MS = 86_400_000

const ORDERS: Record<string, [string, string]> = {
  score: ['a.platform_score DESC, a.platform_id ASC', 'a.platform_score ASC, a.platform_id DESC'],
  followers: ['a.followers_count DESC, a.platform_id ASC', 'a.followers_count ASC, a.platform_id DESC'],
}

/**
 * Distinct tracked authors (never the target) of tweets mentioning the target with created_at in [startMs, endMs],
 * by SQL over mentions ⋈ tweets ⋈ accounts on the author's platform_id.
 */
async function expected(targetId: string, startMs: number, endMs: number, order = ORDERS.score[0], where = 'true') {
  const { query } = await setup()
  return query(`
    SELECT a.platform_id::VARCHAR AS platform_id, a.username, a.name, a.profile_image, a.blue_verified, a.platform_score,
           a.followers_count::DOUBLE AS followers_count
    FROM accounts a
    WHERE a.is_tracked AND a.platform_id <> '${targetId}'::UBIGINT AND ${where}
      AND a.platform_id IN (SELECT t.author_id FROM mentions m JOIN tweets t USING (tweet_idx)
                            WHERE m.target_id = '${targetId}'::UBIGINT AND epoch_ms(t.created_at) BETWEEN ${startMs} AND ${endMs})
    ORDER BY ${order}`)
}

/** Inclusive UTC day range in epoch ms. */
const range = (from: string, to: string): [number, number] => [Date.parse(`${from}T00:00:00Z`), Date.parse(`${to}T00:00:00Z`) + DAY_MS - 1]
const dayBefore = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10)

/** A fixed 30-day range ending today (UTC): results do not move with the clock. */
async function monthRange() {
  const { today } = await setup()
  return { date_from: dayBefore(today, 29), date_to: today }
}

/**
 * A rolling-window request checked against the window anchored just before and just after it (a tweet may cross
 * the window's edge during the request). The request must not be served from the cache (params unique per test).
 */
async function checkRolling(params: Record<string, string | number>, days: number, order = ORDERS.score[0], where = 'true') {
  const { get } = await setup()
  const { a } = await pickAccounts()
  const before = Date.now()
  const res = await get(OP, { platform_id: a.id, size: 100, ...params })
  const after = Date.now()
  assert.is(res.headers.get('x-cache'), 'MISS')
  const early = await expected(a.id, before - days * DAY_MS, before, order, where)
  const late = await expected(a.id, after - days * DAY_MS, after, order, where)
  const rows = JSON.stringify(res.body.mentioners) === JSON.stringify(late.slice(0, 100)) ? late : early
  assert.is(res.body.total, rows.length)
  assert.equal(res.body.mentioners, rows.slice(0, 100))
  assert.is(res.body.days, days)
  assert.not.ok('date_from' in res.body || 'date_to' in res.body)
  return res
}

Mentioners('happy :: default window is the last 7 days back from the request time, by score descending', async () => {
  const res = await checkRolling({}, 7)
  assert.ok(res.body.total > 1, 'the busy account needs several mentioners in 7 days')
  await assertMatchesOpenApi(OP, res)
})

Mentioners('days :: 1, 7 and 30 are rolling windows; non-numeric falls back to 7', async () => {
  for (const days of [1, 7, 30]) await checkRolling({ days, by: 'score' }, days)
  for (const days of ['abc', ' ', 'seven']) await checkRolling({ days }, 7)
})

Mentioners('validation :: another number of days fails with the spec’s message', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  for (const days of ['2', '14', '0', '-7', '7.5', '365']) {
    const res = await get(OP, { platform_id: a.id, days })
    assert.is(res.body.success, false, days)
    assert.is(res.body.error.code, 'invalid_params')
    assert.is(res.body.message, 'Days params is only available: 1|7|30')
    await assertMatchesOpenApi(OP, res)
  }
})

Mentioners('range :: date_from..date_to is inclusive in UTC, echoed instead of days, and days is then ignored', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  const { date_from, date_to } = await monthRange()
  const res = await get(OP, { platform_id: a.id, date_from, date_to, days: 5, size: 100 })
  const rows = await expected(a.id, ...range(date_from, date_to))
  assert.ok(rows.length > 10)
  assert.is(res.body.total, rows.length)
  assert.equal(res.body.mentioners, rows.slice(0, 100))
  assert.is(res.body.date_from, date_from)
  assert.is(res.body.date_to, date_to)
  assert.not.ok('days' in res.body)
  await assertMatchesOpenApi(OP, res)
})

Mentioners('range :: a single day covers 00:00 to the end of that day', async () => {
  const { get, query } = await setup()
  const { a } = await pickAccounts()
  const [{ day }] = await query(`
    SELECT strftime(make_timestamp(epoch_us(t.created_at)), '%Y-%m-%d') AS day FROM mentions m JOIN tweets t USING (tweet_idx)
    WHERE m.target_id = '${a.id}'::UBIGINT GROUP BY day ORDER BY count(*) DESC, day LIMIT 1`)
  const res = await get(OP, { platform_id: a.id, date_from: day, date_to: day, size: 100 })
  const rows = await expected(a.id, ...range(day, day))
  assert.ok(rows.length > 0)
  assert.equal(res.body.mentioners, rows)
  const [{ n }] = await query(`SELECT count(*)::INTEGER AS n FROM mentions WHERE target_id = '${a.id}'::UBIGINT`)
  assert.ok(rows.length < n, 'a day is narrower than the whole history')
})

Mentioners('validation :: the date-range messages (together, format, order)', async () => {
  const { get, today } = await setup()
  const { a } = await pickAccounts()
  const cases: [Record<string, string>, string][] = [
    [{ date_from: today }, 'date_from and date_to must be provided together'],
    [{ date_to: today }, 'date_from and date_to must be provided together'],
    [{ date_from: today, date_to: '', days: '30' }, 'date_from and date_to must be provided together'],
    [{ date_from: '2026-11-5', date_to: today }, 'Invalid date format. Use YYYY-MM-DD'],
    [{ date_from: today, date_to: '2026-02-30' }, 'Invalid date format. Use YYYY-MM-DD'],
    [{ date_from: '11/01/2026', date_to: '11/02/2026' }, 'Invalid date format. Use YYYY-MM-DD'],
    [{ date_from: today, date_to: dayBefore(today, 1) }, 'date_from must be on or before date_to'],
    [{ date_from: today, date_to: dayBefore(today, 1), days: '2' }, 'date_from must be on or before date_to'],
  ]
  for (const [params, message] of cases) {
    const res = await get(OP, { platform_id: a.id, ...params })
    assert.is(res.body.success, false, JSON.stringify(params))
    assert.is(res.body.error.code, 'invalid_params')
    assert.is(res.body.message, message, JSON.stringify(params))
  }
})

Mentioners('validation :: by other than score or followers fails with the spec’s message', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  for (const by of ['Score', 'alpha', 'subscribed_at']) {
    const res = await get(OP, { platform_id: a.id, by })
    assert.is(res.body.success, false, by)
    assert.is(res.body.error.code, 'invalid_params')
    assert.is(res.body.message, 'Sorting is only possible by [score|followers]')
  }
})

for (const [by, [desc, asc]] of Object.entries(ORDERS)) {
  Mentioners(`sort :: by=${by} descending and ascending`, async () => {
    const { get } = await setup()
    const { a } = await pickAccounts()
    const window = await monthRange()
    const down = await get(OP, { platform_id: a.id, ...window, by, size: 100 })
    assert.equal(down.body.mentioners, (await expected(a.id, ...range(window.date_from, window.date_to), desc)).slice(0, 100))
    const up = await get(OP, { platform_id: a.id, ...window, by, sort: 'Asc', size: 100 })
    const ascending = await expected(a.id, ...range(window.date_from, window.date_to), asc)
    assert.equal(up.body.mentioners, ascending.slice(0, 100))
    // small pages near the start (the server orders only the rows up to the page) and one past the middle
    const descending = await expected(a.id, ...range(window.date_from, window.date_to), desc)
    for (const [sort, rows] of [['asc', ascending], ['desc', descending]] as const) {
      for (const [size, page] of [[5, 1], [5, 2], [7, 3], [3, 30]]) {
        const res = await get(OP, { platform_id: a.id, ...window, by, sort, size, page })
        assert.equal(res.body.mentioners, rows.slice((page - 1) * size, page * size), `${sort} size ${size} page ${page}`)
      }
    }
  })
}

Mentioners('rows :: only authors in the account table; the target never mentions itself', async () => {
  const { query } = await setup()
  const { a } = await pickAccounts()
  const { date_from, date_to } = await monthRange()
  const [start, end] = range(date_from, date_to)
  const [{ outsiders }] = await query(`
    SELECT count(DISTINCT t.author_id)::INTEGER AS outsiders FROM mentions m JOIN tweets t USING (tweet_idx)
    LEFT JOIN accounts x ON x.platform_id = t.author_id
    WHERE m.target_id = '${a.id}'::UBIGINT AND epoch_ms(t.created_at) BETWEEN ${start} AND ${end} AND NOT coalesce(x.is_tracked, false)`)
  assert.ok(outsiders > 0, 'the window needs authors outside the account table, to show they are left out')
  const { get } = await setup()
  const res = await get(OP, { platform_id: a.id, date_from, date_to, size: 100 })
  const ids = new Set(res.body.mentioners.map((m: any) => m.platform_id))
  assert.not.ok(ids.has(a.id))
  const [{ tracked }] = await query(`
    SELECT count(*)::INTEGER AS tracked FROM accounts WHERE is_tracked AND platform_id::VARCHAR IN (${[...ids].map((id) => `'${id}'`).join(',')})`)
  assert.is(tracked, ids.size)
})

Mentioners('filters :: tag_id and category_id keep matching mentioners (AND); non-numeric values are ignored', async () => {
  const { get, query } = await setup()
  const { a } = await pickAccounts()
  const window = await monthRange()
  const span = range(window.date_from, window.date_to)
  const mentioners = (await expected(a.id, ...span)).map((m) => `'${m.platform_id}'`).join(',')
  const [labels] = await query(`
    SELECT (SELECT tag_id FROM account_tags WHERE platform_id::VARCHAR IN (${mentioners}) GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) AS tag_id,
           (SELECT category_id FROM account_categories WHERE platform_id::VARCHAR IN (${mentioners}) GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) AS category_id`)
  const hasTag = `EXISTS (SELECT 1 FROM account_tags x WHERE x.account_idx = a.account_idx AND x.tag_id = ${labels.tag_id})`
  const hasCategory = `EXISTS (SELECT 1 FROM account_categories x WHERE x.account_idx = a.account_idx AND x.category_id = ${labels.category_id})`
  const cases: [Record<string, number>, string][] = [
    [{ tag_id: labels.tag_id }, hasTag],
    [{ category_id: labels.category_id }, hasCategory],
    [{ tag_id: labels.tag_id, category_id: labels.category_id }, `${hasTag} AND ${hasCategory}`],
  ]
  for (const [filter, where] of cases) {
    const res = await get(OP, { platform_id: a.id, ...window, ...filter, size: 100 })
    const rows = await expected(a.id, ...span, ORDERS.score[0], where)
    assert.ok(rows.length > 0, JSON.stringify(filter))
    assert.is(res.body.total, rows.length)
    assert.equal(res.body.mentioners, rows.slice(0, 100))
  }
  const unfiltered = (await get(OP, { platform_id: a.id, ...window, size: 100 })).body
  for (const filter of [{ tag_id: 'abc' }, { category_id: '1x' }, { tag_id: 'x', category_id: 'y' }] as Record<string, string>[]) {
    assert.equal((await get(OP, { platform_id: a.id, ...window, ...filter, size: 100 })).body, unfiltered, JSON.stringify(filter))
  }
})

/** The target profile block by SQL: prefixed tags and categories. */
async function profile(id: string) {
  const { query } = await setup()
  const [row] = await query(`
    SELECT a.platform_id::VARCHAR AS platform_id, a.username, a.name, a.description, a.followers_count::DOUBLE AS followers_count,
           a.profile_image,
           coalesce((SELECT list({'tag_id': t.tag_id, 'tag_name': t.name} ORDER BY t.tag_id) FROM account_tags x JOIN tags t USING (tag_id)
                     WHERE x.account_idx = a.account_idx), []) AS tags,
           coalesce((SELECT list({'category_id': c.category_id, 'category_name': c.name} ORDER BY c.category_id)
                     FROM account_categories x JOIN categories c USING (category_id) WHERE x.account_idx = a.account_idx), []) AS categories
    FROM accounts a WHERE a.platform_id = '${id}'::UBIGINT`)
  return row
}

Mentioners('target :: the envelope carries the target’s profile with prefixed tags and categories', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  const { success, total, page, size, pages, date_from, date_to, mentioners, ...target } = (
    await get(OP, { platform_id: a.id, ...(await monthRange()) })
  ).body
  assert.equal(target, await profile(a.id))
  assert.ok(target.tags.length + target.categories.length > 0, 'the busy account carries labels')
})

Mentioners('target :: a friend-only target has empty tags and categories', async () => {
  const { get, query } = await setup()
  const [friend] = await query<{ id: string }>(`
    SELECT a.platform_id::VARCHAR AS id FROM mentions m JOIN accounts a ON a.account_idx = m.target_idx
    WHERE NOT a.is_tracked GROUP BY a.platform_id ORDER BY count(*) DESC, a.platform_id LIMIT 1`)
  assert.ok(friend, 'the tiny snapshot needs a mentioned friend-only account')
  const window = await monthRange()
  const res = await get(OP, { platform_id: friend.id, ...window, size: 100 })
  assert.is(res.body.success, true)
  assert.equal(res.body.tags, [])
  assert.equal(res.body.categories, [])
  assert.is(res.body.platform_id, friend.id)
  assert.equal(res.body.mentioners, (await expected(friend.id, ...range(window.date_from, window.date_to))).slice(0, 100))
  await assertMatchesOpenApi(OP, res)
})

/** The busy account (the tiny snapshot's most mentioned target) and the time of its oldest mention. */
async function busyTarget() {
  const { server } = await setup()
  const { a } = await pickAccounts()
  const snapshot = server.snapshots.current
  const target = snapshot.accounts.numericId.indexOf(BigInt(a.id))
  const { offsets, tweetIdx, createdAtMs } = snapshot.mentions
  return { a, oldestMs: createdAtMs[tweetIdx[offsets[target + 1] - 1]] }
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

Mentioners('range :: the first week of the busy account’s mentions, with more mentions after it than in it, matches SQL', async () => {
  const { get } = await setup()
  const { a, oldestMs } = await busyTarget()
  const date_from = utcDay(oldestMs)
  const date_to = utcDay(oldestMs + 6 * DAY_MS)
  const [start, end] = range(date_from, date_to)
  const rows = await expected(a.id, start, end)
  assert.ok(rows.length > 3, 'the first week of the busy account’s mentions needs mentioners')
  for (const [size, page] of [[100, 1], [2, 2]]) {
    const res = await get(OP, { platform_id: a.id, date_from, date_to, size, page })
    assert.is(res.body.total, rows.length)
    assert.equal(res.body.mentioners, rows.slice((page - 1) * size, page * size))
  }
})

accountResolutionCases(Mentioners, OP, 'fallback', { date_from: '2000-01-01', date_to: '2100-12-31' })
paginationCases(Mentioners, OP, async () => ({ platform_id: (await pickAccounts()).a.id, ...(await monthRange()) }), { default: 10, max: 100 }, 'mentioners')

Mentioners.run()
