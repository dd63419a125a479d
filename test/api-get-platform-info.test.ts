import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { accountResolutionCases } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { setup } from './_setup.ts'

const PlatformInfo = suite('get_platform_info')

/** The full record of docs/extra-operations.md, computed by SQL over the snapshot files. */
async function expectedRecord(platformId: string) {
  const { query, config } = await setup()
  const where = `platform_id = '${platformId}'::UBIGINT`
  const [profile] = await query(`
    SELECT platform_id::VARCHAR AS platform_id, username, name, description, profile_image,
           '${config.profileBaseUrl}/' || username AS platform_url, blue_verified, platform_score, rank,
           followers_count::DOUBLE AS followers_count, smart_followers_count,
           is_monitored AS monitored, is_tracked AS tracked
    FROM accounts WHERE ${where}`)
  const previous = await query(`SELECT username FROM previous_usernames WHERE ${where} ORDER BY changed_at, username`)
  const tags = await query(`SELECT t.tag_id, t.name AS tag_name FROM account_tags JOIN tags t USING (tag_id)
                            WHERE ${where} ORDER BY tag_id`)
  const categories = await query(`SELECT c.category_id, c.name AS category_name
                                  FROM account_categories JOIN categories c USING (category_id)
                                  WHERE ${where} ORDER BY category_id`)
  return {
    success: true,
    ...profile,
    previous_usernames: previous.map((p) => p.username),
    tags,
    categories,
  }
}

/** First account (by platform_id) matching `where`, as a decimal string. */
async function pick(where: string, what: string): Promise<string> {
  const { query } = await setup()
  const [row] = await query(`SELECT platform_id::VARCHAR AS id FROM accounts a WHERE ${where} ORDER BY platform_id LIMIT 1`)
  assert.ok(row, `the tiny snapshot needs ${what}`)
  return row.id
}

PlatformInfo('happy :: a tracked account with tags, categories and renames: every field of the record', async () => {
  const { get } = await setup()
  const id = await pick(
    `is_tracked AND smart_followers_count > 0
     AND EXISTS (SELECT 1 FROM account_tags t WHERE t.account_idx = a.account_idx)
     AND EXISTS (SELECT 1 FROM account_categories c WHERE c.account_idx = a.account_idx)
     AND EXISTS (SELECT 1 FROM previous_usernames p WHERE p.account_idx = a.account_idx)`,
    'a tracked account with smart followers, tags, categories and a previous username',
  )
  const res = await get('get_platform_info', { platform_id: id })
  const expected = await expectedRecord(id)
  assert.equal(res.body, expected)
  assert.equal(Object.keys(res.body), Object.keys(expected), 'field order of the contract')
  assert.ok(res.body.rank >= 1 && res.body.tracked === true)
  await assertMatchesOpenApi('get_platform_info', res)
})

PlatformInfo('previous usernames :: every old handle, oldest change first', async () => {
  const { get, query } = await setup()
  const [renamed] = await query(`
    SELECT platform_id::VARCHAR AS id, list(username ORDER BY changed_at, username) AS old FROM previous_usernames
    GROUP BY platform_id HAVING count(DISTINCT changed_at) > 1 ORDER BY platform_id LIMIT 1`)
  assert.ok(renamed, 'the tiny snapshot needs an account renamed twice')
  const res = await get('get_platform_info', { platform_id: renamed.id })
  assert.equal(res.body.previous_usernames, renamed.old)
})

PlatformInfo('flags :: a full record outside the monitored set is tracked but not monitored', async () => {
  const { get } = await setup()
  const id = await pick('is_tracked AND NOT is_monitored', 'an unmonitored full record')
  const res = await get('get_platform_info', { platform_id: id })
  assert.equal(res.body, await expectedRecord(id))
  assert.equal([res.body.tracked, res.body.monitored], [true, false])
  await assertMatchesOpenApi('get_platform_info', res)
})

PlatformInfo('friend records :: a friend-only target: rank null, not tracked, empty tags and categories', async () => {
  const { get } = await setup()
  const id = await pick('NOT is_tracked', 'a friend-only record')
  const res = await get('get_platform_info', { platform_id: id })
  assert.equal(res.body, await expectedRecord(id))
  assert.equal(
    [res.body.rank, res.body.tracked, res.body.monitored, res.body.tags, res.body.categories],
    [null, false, false, [], []],
  )
  await assertMatchesOpenApi('get_platform_info', res)
})

PlatformInfo('errors :: the error bodies match the OpenAPI document', async () => {
  const { get } = await setup()
  for (const params of [{}, { username: 'no_such_handle_zz9' }] as Record<string, string>[]) {
    const res = await get('get_platform_info', params)
    assert.is(res.body.success, false)
    await assertMatchesOpenApi('get_platform_info', res)
  }
})

accountResolutionCases(PlatformInfo, 'get_platform_info', 'fallback')

PlatformInfo.run()
