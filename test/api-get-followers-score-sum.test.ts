import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import path from 'node:path'
import { buildSnapshot } from '../pipeline/build.ts'
import { DuckDBInstance } from '@duckdb/node-api'
import { followersScoreSum } from '../server/queries/score-sum.ts'
import { loadSnapshot } from '../server/snapshot/load.ts'
import { accountResolutionCases, pickAccounts } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { setup } from './_setup.ts'
import { BUILD_DATE, baseRaw, id, tempDir, writeRaw } from './_fixtures.ts'

const ScoreSum = suite('get_followers_score_sum')

/** Sum over the target's smart followers matching `where` (each follower once), by SQL. */
async function expectedSum(targetId: string, where = 'true'): Promise<number> {
  const { query } = await setup()
  const [{ total }] = await query(`
    SELECT coalesce(round(sum(sf.follower_score), 2), 0)::DOUBLE AS total FROM smart_followers sf
    WHERE sf.target_id = '${targetId}'::UBIGINT AND ${where}`)
  return total
}

const anyCategory = (ids: number[]) =>
  `EXISTS (SELECT 1 FROM account_categories x WHERE x.account_idx = sf.follower_idx AND x.category_id IN (${ids.join(',')}))`
const anyTag = (ids: number[]) =>
  `EXISTS (SELECT 1 FROM account_tags x WHERE x.account_idx = sf.follower_idx AND x.tag_id IN (${ids.join(',')}))`

ScoreSum('happy :: the target’s profile, prefixed tags/categories and the unfiltered score sum', async () => {
  const { get, query } = await setup()
  const { a } = await pickAccounts()
  const res = await get('get_followers_score_sum', { platform_id: a.id })
  const [profile] = await query(`
    SELECT platform_id::VARCHAR AS platform_id, username, name, description, profile_image, platform_score,
           followers_count::DOUBLE AS followers_count, smart_followers_count
    FROM accounts WHERE platform_id = '${a.id}'::UBIGINT`)
  const tags = await query(`SELECT t.tag_id, t.name AS tag_name FROM account_tags JOIN tags t USING (tag_id)
                            WHERE platform_id = '${a.id}'::UBIGINT ORDER BY tag_id`)
  const categories = await query(`SELECT c.category_id, c.name AS category_name FROM account_categories JOIN categories c USING (category_id)
                                  WHERE platform_id = '${a.id}'::UBIGINT ORDER BY category_id`)
  assert.equal(res.body, {
    success: true,
    ...profile,
    followers_score_sum: await expectedSum(a.id),
    tags,
    categories,
  })
  await assertMatchesOpenApi('get_followers_score_sum', res)
})

ScoreSum('filters :: category_ids and tag_ids match any listed id, combined with AND, each follower once', async () => {
  const { get, query } = await setup()
  const { a } = await pickAccounts()
  const cats = (await query(`SELECT DISTINCT category_id FROM account_categories ORDER BY 1 LIMIT 2`)).map((r) => r.category_id)
  const tags = (await query(`SELECT DISTINCT tag_id FROM account_tags ORDER BY 1 LIMIT 3`)).map((r) => r.tag_id)
  const sum = async (params: Record<string, string>) =>
    (await get('get_followers_score_sum', { platform_id: a.id, ...params })).body.followers_score_sum
  assert.is(await sum({ category_ids: cats.join(',') }), await expectedSum(a.id, anyCategory(cats)))
  assert.is(await sum({ tag_ids: tags.join(',') }), await expectedSum(a.id, anyTag(tags)))
  assert.is(
    await sum({ category_ids: cats.join(','), tag_ids: tags.join(',') }),
    await expectedSum(a.id, `${anyCategory(cats)} AND ${anyTag(tags)}`),
  )
  assert.ok((await expectedSum(a.id, anyCategory(cats))) < (await expectedSum(a.id)), 'the filter must remove someone')
})

ScoreSum('lists :: whitespace trimmed and empty items skipped', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  const cats = [1, 7]
  const res = await get('get_followers_score_sum', { platform_id: a.id, category_ids: ` 1 , ,7,` })
  assert.is(res.body.followers_score_sum, await expectedSum(a.id, anyCategory(cats)))
})

ScoreSum('lists :: a list with a non-integer item is ignored as a whole (no error)', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  const all = await expectedSum(a.id)
  for (const category_ids of ['1,x', 'abc', '1.5', '7,,2a']) {
    const res = await get('get_followers_score_sum', { platform_id: a.id, category_ids, tag_ids: 'nope' })
    assert.is(res.body.success, true)
    assert.is(res.body.followers_score_sum, all, category_ids)
  }
})

ScoreSum('filters :: nothing matching gives 0', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  const res = await get('get_followers_score_sum', { platform_id: a.id, tag_ids: '987654' })
  assert.is(res.body.followers_score_sum, 0)
})

ScoreSum('friend records :: a friend-only target has empty tags and categories', async () => {
  const { get, query } = await setup()
  const [friend] = await query(`SELECT platform_id::VARCHAR AS id FROM accounts WHERE NOT is_tracked ORDER BY platform_id LIMIT 1`)
  assert.ok(friend, 'the tiny snapshot needs a friend-only record')
  const res = await get('get_followers_score_sum', { platform_id: friend.id })
  assert.is(res.body.success, true)
  assert.equal([res.body.tags, res.body.categories], [[], []])
  await assertMatchesOpenApi('get_followers_score_sum', res)
})

ScoreSum('filters :: label ids on either side of 31, 32, 62 and 63 match exactly as in SQL, for every target', async () => {
  // the hand-made fixture, with labels on either side of the bit masks' edges for accounts that follow several targets
  const raw = baseRaw()
  raw['categories.parquet'].push([31, 'Edge'], [32, 'Past the mask'], [40, 'Far'])
  raw['tags.parquet'].push([31, 'Low edge', 1], [32, 'High start', 1], [62, 'High edge', 2], [63, 'Past', 2], [70, 'Far', 2])
  raw['account_categories.parquet'].push([id(1), 32], [id(4), 40], [id(5), 31], [id(2), 40])
  raw['account_tags.parquet'].push([id(1), 63], [id(2), 62], [id(5), 31], [id(5), 32], [id(6), 70], [id(4), 62])
  const snapshots = tempDir('score-sum-far')
  await buildSnapshot({ rawDir: await writeRaw(tempDir('score-sum-far-raw'), raw), snapshotsDir: snapshots, date: BUILD_DATE })
  const dir = path.join(snapshots, 'current')
  const snapshot = await loadSnapshot(dir)
  const db = await DuckDBInstance.create(':memory:')
  const conn = await db.connect()
  const file = (name: string) => `read_parquet('${path.join(dir, name)}')`
  const matching = (table: string, column: string, ids: number[] | null) =>
    ids ? `AND EXISTS (SELECT 1 FROM ${file(table)} x WHERE x.account_idx = sf.follower_idx AND x.${column} IN (${ids.join(',')}))` : ''
  let cases = 0
  let nonZero = 0
  const filters: [number[] | null, number[] | null][] = [
    ...[1, 7, 31, 32, 40, 999].map((c): [number[], null] => [[c], null]),
    ...[10, 20, 31, 32, 62, 63, 70].map((t): [null, number[]] => [null, [t]]),
    [[1, 40], [10, 63]],
    [[32], [62, 70]],
    [[2, 31], [20, 32]],
  ]
  for (let target = 0; target < snapshot.accounts.count; target++) {
    if (snapshot.smartFollowers.offsets[target + 1] === snapshot.smartFollowers.offsets[target]) continue
    for (const [categories, tags] of filters) {
      const sql = `SELECT coalesce(round(sum(sf.follower_score), 2), 0)::DOUBLE AS total FROM ${file('smart_followers.parquet')} sf
                   WHERE sf.target_idx = ${target} ${matching('account_categories.parquet', 'category_id', categories)}
                   ${matching('account_tags.parquet', 'tag_id', tags)}`
      const expected = (await conn.runAndReadAll(sql)).getRowObjectsJS()[0].total as number
      const sum = followersScoreSum(snapshot, target, categories, tags)
      assert.is(Math.round(sum * 100) / 100, expected, `target ${target} ${categories} ${tags}`)
      cases++
      if (expected > 0) nonZero++
    }
  }
  conn.closeSync()
  db.closeSync()
  assert.ok(cases >= 40 && nonZero >= 10, `${cases} cases, ${nonZero} with a sum`)
})

accountResolutionCases(ScoreSum, 'get_followers_score_sum', 'fallback')

ScoreSum.run()
