import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { accountResolutionCases, pickAccounts } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { paginationCases } from './_pagination.ts'
import { setup } from './_setup.ts'

const Feed = suite('get_mentions_feed')
const OP = 'get_mentions_feed'

/** Author score as sorted: authors outside the account table rank below every score. */
const AUTHOR_SCORE = 'CASE WHEN a.is_tracked THEN a.platform_score ELSE -1 END'
const NEWEST = 't.created_at DESC, t.tweet_id DESC'
const OLDEST = 't.created_at ASC, t.tweet_id ASC'

/** Descending and ascending (= descending reversed) order of each `by`; ties newest first. */
const ORDERS: Record<string, [string, string]> = {
  created_at: [NEWEST, OLDEST],
  favorites: [`t.favorites DESC, ${NEWEST}`, `t.favorites ASC, ${OLDEST}`],
  retweets: [`t.retweets DESC, ${NEWEST}`, `t.retweets ASC, ${OLDEST}`],
  replies: [`t.replies DESC, ${NEWEST}`, `t.replies ASC, ${OLDEST}`],
  views: [`t.views DESC, ${NEWEST}`, `t.views ASC, ${OLDEST}`],
  score: [`${AUTHOR_SCORE} DESC, ${NEWEST}`, `${AUTHOR_SCORE} ASC, ${OLDEST}`],
}

/**
 * Expected items by SQL over mentions ⋈ tweets, the author joined on its platform_id: name and username for any
 * known author, score, follower count and labels only for authors in the account table.
 */
async function expected(targetId: string, order = NEWEST, where = 'true', limit = 25) {
  const { query } = await setup()
  return query(`
    SELECT t.tweet_id::VARCHAR AS id, t.text,
           strftime(make_timestamp(epoch_us(t.created_at)), '%Y-%m-%dT%H:%M:%S') || '+00:00' AS created_at,
           t.favorites::DOUBLE AS favorites, t.retweets::DOUBLE AS retweets, t.replies::DOUBLE AS replies,
           t.views::DOUBLE AS views,
           {'platform_id': t.author_id::VARCHAR,
            'username': coalesce(a.username, 'unknown'),
            'name': coalesce(nullif(a.name, ''), 'Unknown'),
            'profile_image': a.profile_image,
            'platform_score': CASE WHEN a.is_tracked THEN a.platform_score END,
            'followers_count': CASE WHEN a.is_tracked THEN a.followers_count::DOUBLE END,
            'tags': CASE WHEN a.is_tracked THEN coalesce((SELECT list({'id': g.tag_id, 'name': g.name} ORDER BY g.tag_id)
                    FROM account_tags x JOIN tags g USING (tag_id) WHERE x.account_idx = a.account_idx), []) ELSE [] END,
            'categories': CASE WHEN a.is_tracked THEN coalesce((SELECT list({'id': c.category_id, 'name': c.name} ORDER BY c.category_id)
                    FROM account_categories x JOIN categories c USING (category_id) WHERE x.account_idx = a.account_idx), []) ELSE [] END
           } AS author
    FROM mentions m JOIN tweets t USING (tweet_idx) LEFT JOIN accounts a ON a.platform_id = t.author_id
    WHERE m.target_id = '${targetId}'::UBIGINT AND ${where}
    ORDER BY ${order} LIMIT ${limit}`)
}

const countOf = async (targetId: string, where = 'true') =>
  (
    await (await setup()).query(`
      SELECT count(*)::INTEGER AS n FROM mentions m JOIN tweets t USING (tweet_idx) LEFT JOIN accounts a ON a.platform_id = t.author_id
      WHERE m.target_id = '${targetId}'::UBIGINT AND ${where}`)
  )[0].n

Feed('happy :: the target’s mentions newest first, with counters, ISO created_at with offset, and the author', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  const res = await get(OP, { platform_id: a.id, size: 25 })
  assert.is(res.body.total, await countOf(a.id))
  assert.equal(res.body.mentions, await expected(a.id))
  for (const item of res.body.mentions) assert.match(item.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/)
  await assertMatchesOpenApi(OP, res)
})

Feed('authors :: unknown authors are `unknown`/`Unknown` with null score and count; friend-only authors have no score or labels', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  const unknownAuthor = 'a.platform_id IS NULL'
  const friendAuthor = 'NOT a.is_tracked'
  assert.ok((await countOf(a.id, unknownAuthor)) > 0 && (await countOf(a.id, friendAuthor)) > 0, 'the busy account needs both kinds of authors')
  // sorting by author score puts both kinds last; ascending puts them first
  const res = await get(OP, { platform_id: a.id, by: 'score', sort: 'asc', size: 25 })
  const rows = await expected(a.id, ORDERS.score[1])
  assert.equal(res.body.mentions, rows)
  const unknown = res.body.mentions.find((m: any) => m.author.username === 'unknown')
  assert.ok(unknown, 'an unknown author on the first ascending page')
  assert.equal(
    { ...unknown.author, platform_id: '' },
    { platform_id: '', username: 'unknown', name: 'Unknown', profile_image: null, platform_score: null, followers_count: null, tags: [], categories: [] },
  )
  await assertMatchesOpenApi(OP, res)
})

Feed('rows :: the target’s own tweets are excluded; texts may be null', async () => {
  const { get, query } = await setup()
  const { a } = await pickAccounts()
  const ids = []
  for (let page = 1; ; page++) {
    const body = (await get(OP, { platform_id: a.id, size: 25, page })).body
    ids.push(...body.mentions.map((m: any) => m.author.platform_id))
    if (page >= body.pages) break
  }
  assert.is(ids.length, await countOf(a.id))
  assert.not.ok(ids.includes(a.id))
  const [{ nulls }] = await query(`SELECT count(*)::INTEGER AS nulls FROM tweets WHERE text IS NULL`)
  assert.ok(nulls > 0, 'the tiny snapshot has tweets without text')
})

for (const [by, [desc, asc]] of Object.entries(ORDERS)) {
  Feed(`sort :: by=${by} descending and ascending`, async () => {
    const { get } = await setup()
    const { a, b } = await pickAccounts()
    for (const target of [a.id, b.id]) {
      const down = await get(OP, { platform_id: target, by, size: 25 })
      assert.equal(down.body.mentions, await expected(target, desc))
      const up = await get(OP, { platform_id: target, by, sort: 'ascending', size: 25, page: 2 })
      assert.equal(up.body.mentions, (await expected(target, asc, 'true', 50)).slice(25))
    }
  })
}

Feed('sort :: by=created_at and sort=desc are the defaults', async () => {
  const { get } = await setup()
  const { b } = await pickAccounts()
  const plain = (await get(OP, { platform_id: b.id })).body
  assert.equal((await get(OP, { platform_id: b.id, by: 'created_at', sort: 'desc' })).body, plain)
  assert.equal((await get(OP, { platform_id: b.id, sort: 'whatever' })).body, plain)
  assert.equal(plain.mentions, await expected(b.id, NEWEST, 'true', 10))
})

Feed('validation :: other by values fail with the documented message', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  for (const by of ['Created_at', 'likes', 'followers', 'subscribed_at']) {
    const res = await get(OP, { platform_id: a.id, by })
    assert.is(res.body.success, false, by)
    assert.is(res.body.error.code, 'invalid_params')
    assert.is(res.body.message, 'Sorting is only possible by [created_at|favorites|retweets|replies|views|score]')
    await assertMatchesOpenApi(OP, res)
  }
})

Feed('filters :: author tag_id, category_id and tag_category_id (AND) keep tracked authors carrying them', async () => {
  const { get, query } = await setup()
  const { a } = await pickAccounts()
  const [labels] = await query(`
    WITH authors AS (SELECT x.account_idx FROM mentions m JOIN tweets t USING (tweet_idx) JOIN accounts x ON x.platform_id = t.author_id
                     WHERE m.target_id = '${a.id}'::UBIGINT AND x.is_tracked)
    SELECT (SELECT tag_id FROM account_tags JOIN authors USING (account_idx) GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) AS tag_id,
           (SELECT category_id FROM account_categories JOIN authors USING (account_idx) GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) AS category_id,
           (SELECT tag_category_id FROM account_tags JOIN authors USING (account_idx) GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) AS tag_category_id`)
  const hasTag = `EXISTS (SELECT 1 FROM account_tags x WHERE x.account_idx = a.account_idx AND x.tag_id = ${labels.tag_id})`
  const hasCategory = `EXISTS (SELECT 1 FROM account_categories x WHERE x.account_idx = a.account_idx AND x.category_id = ${labels.category_id})`
  const hasTagCategory = `EXISTS (SELECT 1 FROM account_tags x WHERE x.account_idx = a.account_idx AND x.tag_category_id = ${labels.tag_category_id})`
  const tracked = (where: string) => `a.is_tracked AND ${where}`
  const cases: [Record<string, number>, string][] = [
    [{ tag_id: labels.tag_id }, tracked(hasTag)],
    [{ category_id: labels.category_id }, tracked(hasCategory)],
    [{ tag_category_id: labels.tag_category_id }, tracked(hasTagCategory)],
    [{ tag_id: labels.tag_id, category_id: labels.category_id }, tracked(`${hasTag} AND ${hasCategory}`)],
  ]
  for (const [filter, where] of cases) {
    const res = await get(OP, { platform_id: a.id, ...filter, size: 25 })
    const total = await countOf(a.id, where)
    assert.ok(total > 0 && total < (await countOf(a.id)), JSON.stringify(filter))
    assert.is(res.body.total, total)
    assert.equal(res.body.mentions, await expected(a.id, NEWEST, where))
    assert.ok(res.body.mentions.every((m: any) => m.author.platform_score !== null))
  }
  const sorted = await get(OP, { platform_id: a.id, category_id: labels.category_id, by: 'views', sort: 'asc', size: 25, page: 2 })
  assert.equal(sorted.body.mentions, (await expected(a.id, ORDERS.views[1], tracked(hasCategory), 50)).slice(25))
  const none = await get(OP, { platform_id: a.id, tag_id: 999999 })
  assert.is(none.body.total, 0)
  assert.is(none.body.pages, 1)
  assert.equal(none.body.mentions, [])
})

Feed('filters :: a non-numeric filter id surfaces as server_error "Unexpected error…", not invalid_params', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  for (const name of ['tag_id', 'category_id', 'tag_category_id']) {
    const res = await get(OP, { platform_id: a.id, [name]: 'abc' })
    assert.is(res.body.success, false)
    assert.is(res.body.error.code, 'server_error')
    assert.match(res.body.message, /^Unexpected error/)
  }
})

accountResolutionCases(Feed, OP, 'fallback')
paginationCases(Feed, OP, async () => ({ platform_id: (await pickAccounts()).a.id }), { default: 10, max: 25 }, 'mentions')

Feed.run()
