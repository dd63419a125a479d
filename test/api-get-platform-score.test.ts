import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { accountResolutionCases, pickAccounts } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { setup } from './_setup.ts'

const PlatformScore = suite('get_platform_score')

PlatformScore('happy :: id, username, score and rank of the top account and of a busy account', async () => {
  const { get, query } = await setup()
  const { a } = await pickAccounts()
  const rows = await query(`
    SELECT platform_id::VARCHAR AS platform_id, username, platform_score, rank FROM accounts
    WHERE rank = 1 OR platform_id = '${a.id}'::UBIGINT ORDER BY platform_id`)
  assert.ok(rows.length >= 1 && rows.some((r) => r.rank === 1))
  for (const row of rows) {
    const res = await get('get_platform_score', { platform_id: row.platform_id })
    assert.equal(res.body, { success: true, ...row })
    await assertMatchesOpenApi('get_platform_score', res)
  }
})

PlatformScore('rank :: 1 + tracked accounts with a higher score (ties: lower platform_id), computed from the scores', async () => {
  const { get, query } = await setup()
  const rows = await query(`
    WITH tracked AS (SELECT platform_id, platform_score FROM accounts WHERE is_tracked)
    SELECT t.platform_id::VARCHAR AS id,
           1 + (SELECT count(*) FROM tracked o WHERE o.platform_score > t.platform_score
                OR (o.platform_score = t.platform_score AND o.platform_id < t.platform_id))::INTEGER AS rank
    FROM tracked t ORDER BY hash(t.platform_id) LIMIT 12`)
  assert.ok(rows.length > 5)
  for (const row of rows) assert.is((await get('get_platform_score', { platform_id: row.id })).body.rank, row.rank, row.id)
})

PlatformScore('friend records :: a friend-only target has rank null', async () => {
  const { get, query } = await setup()
  const [friend] = await query(`SELECT platform_id::VARCHAR AS id, platform_score FROM accounts WHERE NOT is_tracked
                                ORDER BY platform_score DESC, platform_id LIMIT 1`)
  assert.ok(friend, 'the tiny snapshot needs a friend-only record')
  const res = await get('get_platform_score', { platform_id: friend.id })
  assert.equal([res.body.success, res.body.platform_score, res.body.rank], [true, friend.platform_score, null])
  await assertMatchesOpenApi('get_platform_score', res)
})

PlatformScore('consistency :: the same score, rank and handle as get_platform_info', async () => {
  const { get } = await setup()
  const { a, b } = await pickAccounts()
  for (const id of [a.id, b.id]) {
    const info = (await get('get_platform_info', { platform_id: id })).body
    const score = (await get('get_platform_score', { platform_id: id })).body
    assert.equal(score, {
      success: true,
      platform_id: info.platform_id,
      username: info.username,
      platform_score: info.platform_score,
      rank: info.rank,
    })
  }
})

accountResolutionCases(PlatformScore, 'get_platform_score', 'fallback')

PlatformScore.run()
