import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { accountResolutionCases, pickAccounts } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { setup } from './_setup.ts'

const Smart = suite('get_smart_mentions')
const OP = 'get_smart_mentions'

/**
 * The three windows by SQL as of `nowMs`: rows of the `mentions` view whose author is smart per accounts.parquet
 * (is_smart), created in [now - days, now].
 */
async function expectedWindows(id: string, nowMs: number) {
  const { query } = await setup()
  return query(`
    SELECT w.days::INTEGER AS days, count(m.tweet_idx)::INTEGER AS mentions, count(DISTINCT m.author_idx)::INTEGER AS authors
    FROM (SELECT unnest([1, 7, 30]) AS days) w
    LEFT JOIN (SELECT m.* FROM mentions m JOIN accounts a ON a.account_idx = m.author_idx
               WHERE a.is_smart AND m.target_id = '${id}'::UBIGINT) m
      ON m.epoch_s * 1000 >= ${nowMs} - w.days * 86400000::BIGINT AND m.epoch_s * 1000 <= ${nowMs}
    GROUP BY w.days ORDER BY w.days`)
}

/** The answer, and the expectations at the instants just before and after it (a mention may sit on the edge). */
async function answer(params: Record<string, string>, id: string) {
  const { get } = await setup()
  const before = Date.now()
  const res = await get(OP, params)
  const after = Date.now()
  return { res, expected: [await expectedWindows(id, before), await expectedWindows(id, after)] }
}

Smart('happy :: tweets and distinct smart authors in the rolling 1, 7 and 30 days', async () => {
  const { a, b } = await pickAccounts()
  for (const target of [a, b]) {
    const { res, expected } = await answer({ platform_id: target.id }, target.id)
    assert.equal([res.body.success, res.body.platform_id, res.body.username], [true, target.id, target.username])
    assert.ok(expected.some((windows) => JSON.stringify(windows) === JSON.stringify(res.body.windows)), JSON.stringify(res.body.windows))
    const [one, seven, thirty] = res.body.windows
    assert.ok(thirty.mentions > 0, 'the busy accounts need smart mentions in the last 30 days')
    assert.ok(one.mentions <= seven.mentions && seven.mentions <= thirty.mentions)
    assert.ok(thirty.authors <= thirty.mentions)
    await assertMatchesOpenApi(OP, res)
  }
})

Smart('authors :: only smart authors count: every mention by a non-smart author is left out', async () => {
  const { query } = await setup()
  const { a } = await pickAccounts()
  const [row] = await query(`
    SELECT count(*) FILTER (WHERE NOT coalesce(x.is_smart, false))::INTEGER AS other
    FROM mentions m LEFT JOIN accounts x ON x.account_idx = m.author_idx
    WHERE m.target_id = '${a.id}'::UBIGINT AND m.epoch_s * 1000 >= ${Date.now() - 30 * 86_400_000}`)
  assert.ok(row.other > 0, 'the busy account needs mentions by non-smart authors too')
  const { res, expected } = await answer({ platform_id: a.id }, a.id)
  assert.ok(expected.some((windows) => JSON.stringify(windows) === JSON.stringify(res.body.windows)))
})

Smart('none :: an account no smart author mentioned has three zero windows', async () => {
  const { get, query } = await setup()
  const [quiet] = await query(`
    SELECT platform_id::VARCHAR AS id FROM accounts x
    WHERE NOT EXISTS (SELECT 1 FROM mentions m JOIN accounts a ON a.account_idx = m.author_idx WHERE a.is_smart AND m.target_idx = x.account_idx)
    ORDER BY platform_id LIMIT 1`)
  const res = await get(OP, { platform_id: quiet.id })
  assert.equal(res.body.windows, [1, 7, 30].map((days) => ({ days, mentions: 0, authors: 0 })))
  await assertMatchesOpenApi(OP, res)
})

accountResolutionCases(Smart, OP, 'fallback')

Smart.run()
