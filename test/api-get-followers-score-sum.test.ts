import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import path from 'node:path'
import { buildSnapshot } from '../pipeline/build.ts'
import { readScoreSum, scannedScoreSum, summedByCategories, summedByLabels } from '../server/queries/label-sums.ts'
import { loadSnapshot } from '../server/snapshot/load.ts'
import type { Snapshot } from '../server/snapshot/types.ts'
import { labelSet } from '../server/queries/labels.ts'
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

/**
 * Every target with followers × `filters`: the kept sums by category (category filters) and by label combination,
 * and the read of the stored rows each give the scan's sum (rounded to cents, as answered). Returns how many cases,
 * and how many with a sum.
 */
function compareWays(snapshot: Snapshot, filters: [number[] | null, number[] | null][]): { cases: number; nonZero: number } {
  const { offsets } = snapshot.smartFollowers
  let cases = 0
  let nonZero = 0
  const cents = (sum: number) => Math.round(sum * 100) / 100
  for (let target = 0; target < snapshot.accounts.count; target++) {
    if (offsets[target + 1] === offsets[target]) continue
    for (const [categories, tags] of filters) {
      const c = categories && labelSet(categories)
      const t = tags && labelSet(tags)
      const scanned = cents(scannedScoreSum(snapshot, target, c, t))
      const label = `target ${target} ${categories} ${tags}`
      assert.is(cents(summedByLabels(snapshot, target, c, t)), scanned, `sums by label: ${label}`)
      if (c && !t) assert.is(cents(summedByCategories(snapshot, target, c)), scanned, `sums by category: ${label}`)
      assert.is(readScoreSum(snapshot, target, c, t), scannedScoreSum(snapshot, target, c, t), `stored rows: ${label}`)
      cases++
      if (scanned > 0) nonZero++
    }
  }
  return { cases, nonZero }
}

ScoreSum('ways :: for every target and filter, the kept sums by category and by label combination and the stored rows answer as the scan', async () => {
  const { server } = await setup()
  const snapshot = server.snapshots.current
  const tagIds = snapshot.tags.map((t) => t.id)
  const categoryIds = snapshot.categories.map((c) => c.id)
  // single ids, pairs, ids past the masks' ranges and ids nobody has, categories and tags alone and together
  const { cases, nonZero } = compareWays(snapshot, [
    ...categoryIds.map((id): [number[], null] => [[id], null]),
    ...tagIds.map((id): [null, number[]] => [null, [id]]),
    [[1, 7], null],
    [null, [tagIds[0], tagIds.at(-1)!, 40, 63, 64, 999]],
    [[1, 7, 32, 999], [tagIds[1], 33, 5000]],
    [[-1], null],
    [categoryIds, tagIds],
  ])
  assert.ok(cases > 500 && nonZero > cases / 10, `${cases} cases, ${nonZero} with a sum`)
})

ScoreSum('ways :: followers with category ids past 31 and tag ids past 62 are checked on their labels', async () => {
  // the hand-made fixture, with labels on either side of the masks' edges for accounts that follow several targets
  const raw = baseRaw()
  raw['categories.parquet'].push([31, 'Edge'], [32, 'Past the mask'], [40, 'Far'])
  raw['tags.parquet'].push([31, 'Low edge', 1], [32, 'High start', 1], [62, 'High edge', 2], [63, 'Past', 2], [70, 'Far', 2])
  raw['account_categories.parquet'].push([id(1), 32], [id(4), 40], [id(5), 31], [id(2), 40])
  raw['account_tags.parquet'].push([id(1), 63], [id(2), 62], [id(5), 31], [id(5), 32], [id(6), 70], [id(4), 62])
  const snapshots = tempDir('score-sum-far')
  await buildSnapshot({ rawDir: await writeRaw(tempDir('score-sum-far-raw'), raw), snapshotsDir: snapshots, date: BUILD_DATE })
  const snapshot = await loadSnapshot(path.join(snapshots, 'current'))
  const { tagsHigh } = snapshot.smartFollowers.followerLabels
  const flagged = [...tagsHigh.read(0, tagsHigh.rows)].filter((mask) => mask >= 2 ** 31).length
  assert.ok(flagged >= 2 && flagged < tagsHigh.rows, `${flagged} of ${tagsHigh.rows} smart-follower rows flagged`)
  const ids = (...list: number[]) => list
  const { cases, nonZero } = compareWays(snapshot, [
    ...[1, 7, 31, 32, 40, 999].map((c): [number[], null] => [[c], null]),
    ...[10, 20, 31, 32, 62, 63, 70].map((t): [null, number[]] => [null, [t]]),
    [ids(1, 40), ids(10, 63)],
    [ids(32), ids(62, 70)],
    [ids(2, 31), ids(20, 32)],
  ])
  assert.ok(cases >= 40 && nonZero >= 10, `${cases} cases, ${nonZero} with a sum`)
})

accountResolutionCases(ScoreSum, 'get_followers_score_sum', 'fallback')

ScoreSum.run()
