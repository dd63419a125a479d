/**
 * Every snapshot file built from the hand-made fixture (test/_fixtures.ts) against hand-computed rows.
 *
 * Fixture map (account k has id 18000000000000000000+k and account_idx k-1; 13 is friend-only, 99 is unknown):
 *   1 VcOne (VC, seed)  2 VcTwo (VC+Influencer, seed)  3 Founder (seed)  4 Proj (Projects)  5 Infl (Influencer)
 *   6 Angel (Angels)  7 SmallGem (not monitored)  8 Banned (VC, suspended)  9 Sleepy (inactive)  10/11 RingA/RingB
 *   (monitored, follow only each other)  12 NoName (no name, not monitored)  13 Friendy (friend record only)
 *   14 Lonely (not monitored, no smart follower)
 * Scans (build date 2026-11-22): 1: 11-10 [4,5] → 11-16 [4,5,7] → 11-21 [4,7,13]; 2: 11-10 [1,4] → 11-20 [1,4,12];
 *   3: 11-10 [1,2,4] → 11-22 [1,2,4,5] → 11-23 [1] (after the build date); 4: 11-12 [1];
 *   5: 11-10 [4,6] → 11-15 [4] → 11-19 [4,6]; 6: 11-10 [5] → 11-22 [5,7]; 8: 11-10 [7] → 11-21 [7,4,14];
 *   9: 11-10 [7]; 10: 11-10 [11]; 11: 11-10 [10]. Scan k on day d is at d 06:0k:00.123 (k as minutes).
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import fs from 'node:fs'
import path from 'node:path'
import { buildSnapshot } from '../pipeline/build.ts'
import { BUILD_DATE, baseRaw, id, idx, readParquet, readSnapshot, tempDir, writeRaw } from './_fixtures.ts'

/** The server's lookup logs: one line per resolved account lookup (plus an unknown id and a torn last line). */
function writeLookups(): string {
  const dir = tempDir('pipeline-lookups')
  const line = (at: string, k: number) => JSON.stringify({ at, operation: 'get_platform_info', platform_id: id(k) })
  fs.writeFileSync(path.join(dir, '2026-11-20.ndjson'), [
    line('2026-11-16T10:00:00Z', 7), line('2026-11-20T09:00:00Z', 1), line('2026-11-20T09:30:00Z', 1),
    line('2026-10-01T00:00:00Z', 12),
  ].join('\n') + '\n')
  fs.writeFileSync(path.join(dir, '2026-11-22.ndjson'), [
    line('2026-11-22T00:00:00Z', 4), line('2026-11-22T23:59:59Z', 4), line('2026-11-22T12:00:00Z', 1),
    line('2026-11-22T12:00:00Z', 99), line('2026-11-23T00:00:01Z', 1), '{"at": "2026-11-22T13:',
  ].join('\n'))
  return dir
}

const built = (async () => {
  const raw = await writeRaw(tempDir('pipeline-raw'), baseRaw())
  return buildSnapshot({ rawDir: raw, snapshotsDir: tempDir('pipeline-snapshots'), date: BUILD_DATE, lookupsDir: writeLookups() })
})()

async function rows(file: string, sql?: string) {
  return readSnapshot((await built).dir, file, sql)
}

const scanAt = (date: string, k: number) => `${date} 06:${String(k).padStart(2, '0')}:00.123`

const Accounts = suite('accounts')

Accounts('accounts :: full records and friend-only records, dense idx by platform_id', async () => {
  const all = await rows('accounts')
  assert.equal(all.map((r) => r.platform_id), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14].map(id))
  assert.equal(all.map((r) => r.account_idx), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])
  const friend = all[idx(13)]
  assert.equal(
    [friend.username, friend.slug, friend.name, friend.description, friend.is_tracked, friend.graph_score, friend.rank],
    ['Friendy', null, 'Friend Only', '', false, 420.5, null],
  )
  const proj = all[idx(4)]
  assert.equal([proj.username, proj.is_tracked, proj.graph_score], ['Proj', true, 300])
})

Accounts('accounts :: smart = monitored, active and not suspended', async () => {
  const smart = (await rows('accounts')).filter((r) => r.is_smart).map((r) => r.platform_id)
  assert.equal(smart, [1, 2, 3, 4, 5, 6, 10, 11].map(id))
})

Accounts('accounts :: followers_count is the latest scan on or before the build date for monitored accounts', async () => {
  const counts = (await rows('accounts')).map((r) => r.followers_count)
  // 1: scan 5000; 4: scan 1200 (11-22); 5: scan 800 (11-10); 7: not monitored → profile 50 (its scan is ignored);
  // 13: friend record 77
  assert.equal(counts, ['5000', '3000', '2500', '1200', '800', '500', '50', '100', '10', '20', '30', '5', '77', '3'])
})

Accounts('accounts :: smart_followers_count counts active follows of smart followers', async () => {
  const counts = (await rows('accounts')).map((r) => r.smart_followers_count)
  assert.equal(counts, [3, 1, 0, 4, 2, 1, 2, 0, 0, 1, 1, 1, 1, 0])
})

Accounts('accounts :: rank 1 is the best tracked account, dense, ties by platform_id; no history → NULL', async () => {
  const all = await rows('accounts')
  const tracked = all.filter((r) => r.is_tracked)
  const expected = [...tracked].sort(
    (a, b) => (b.platform_score as number) - (a.platform_score as number) || (BigInt(a.platform_id as string) < BigInt(b.platform_id as string) ? -1 : 1),
  )
  assert.equal(expected.map((r) => r.rank), tracked.map((_, i) => i + 1))
  // VcOne and Proj each have two fully trusted smart followers: Proj, of fewer followers (a median of 1,125 counted
  // against VcOne's 5,000), scores and ranks higher
  assert.ok((all[idx(4)].platform_score as number) > (all[idx(1)].platform_score as number))
  assert.ok((all[idx(4)].rank as number) < (all[idx(1)].rank as number))
  // ties (the accounts of score 0): by platform_id
  const zeros = tracked.filter((r) => r.platform_score === 0)
  assert.ok(zeros.length > 1)
  assert.equal(zeros.map((r) => r.rank), zeros.map((r) => r.rank).sort((a, b) => (a as number) - (b as number)))
  assert.ok(all.every((r) => r.score_1d_ago === null && r.score_7d_ago === null && r.score_30d_ago === null))
})

const Reference = suite('reference files')

Reference('previous_usernames :: per known account by changed_at; unknown ids dropped', async () => {
  assert.equal(await rows('previous_usernames'), [
    { account_idx: 3, platform_id: id(4), username: 'older_proj', changed_at: '2025-01-01' },
    { account_idx: 3, platform_id: id(4), username: 'old_proj', changed_at: '2026-06-01' },
  ])
})

Reference('categories, tags :: sorted by id, tags carry their category name', async () => {
  assert.equal((await rows('categories')).map((r) => r.category_id), [1, 2, 3, 4, 5, 6, 7, 8])
  assert.equal(await rows('tag_categories'), [{ tag_category_id: 1, name: 'Sector' }, { tag_category_id: 2, name: 'Chain' }])
  assert.equal(await rows('tags'), [
    { tag_id: 10, name: 'DeFi', tag_category_id: 1, tag_category_name: 'Sector' },
    { tag_id: 11, name: 'NFT', tag_category_id: 1, tag_category_name: 'Sector' },
    { tag_id: 20, name: 'Ethereum', tag_category_id: 2, tag_category_name: 'Chain' },
  ])
})

Reference('account_categories, account_tags :: full accounts only, sorted', async () => {
  assert.equal(
    (await rows('account_categories')).map((r) => [r.account_idx, r.category_id]),
    [[0, 1], [1, 1], [1, 7], [2, 2], [3, 3], [4, 7], [5, 8], [7, 1]],
  )
  assert.equal(await rows('account_tags'), [
    { account_idx: 0, platform_id: id(1), tag_id: 10, tag_category_id: 1 },
    { account_idx: 3, platform_id: id(4), tag_id: 10, tag_category_id: 1 },
    { account_idx: 3, platform_id: id(4), tag_id: 20, tag_category_id: 2 },
  ])
})

const SmartFollowers = suite('smart_followers')

SmartFollowers('smart_followers :: active follows of smart followers with subscribed_at of the run start', async () => {
  const got = (await rows('smart_followers')).map((r) => [r.target_id, r.follower_id, r.subscribed_at])
  const expected = [
    [1, 2, scanAt('2026-11-10', 2)], [1, 3, scanAt('2026-11-10', 3)], [1, 4, scanAt('2026-11-12', 4)],
    [2, 3, scanAt('2026-11-10', 3)],
    [4, 1, scanAt('2026-11-10', 1)], [4, 2, scanAt('2026-11-10', 2)], [4, 3, scanAt('2026-11-10', 3)], [4, 5, scanAt('2026-11-10', 5)],
    [5, 3, scanAt('2026-11-22', 3)], [5, 6, scanAt('2026-11-10', 6)],
    [6, 5, scanAt('2026-11-19', 5)], // re-follow after the 11-15 unfollow starts a new subscribed_at
    [7, 1, scanAt('2026-11-16', 1)], [7, 6, scanAt('2026-11-22', 6)], // 8 (suspended) and 9 (inactive) do not count
    [10, 11, scanAt('2026-11-10', 11)], [11, 10, scanAt('2026-11-10', 10)],
    [12, 2, scanAt('2026-11-20', 2)], [13, 1, scanAt('2026-11-21', 1)],
  ].map(([t, f, at]) => [id(t as number), id(f as number), at])
  const key = (r: unknown[]) => `${r[0]}/${r[1]}`
  assert.equal([...got].sort((a, b) => key(a).localeCompare(key(b))), expected)
})

SmartFollowers('smart_followers :: sorted by target, score desc, id; pos columns per target', async () => {
  const target4 = await rows('smart_followers', `select * from t where target_idx = ${idx(4)}`)
  const scores = (await rows('accounts')).map((r) => r.platform_score as number)
  const byScore = [1, 2, 3, 5].sort((a, b) => scores[idx(b)] - scores[idx(a)] || a - b)
  assert.equal(target4.map((r) => r.follower_id), byScore.map(id))
  // followers_count: 1 → 5000, 2 → 3000, 3 → 2500, 5 → 800; subscribed_at: 5 > 3 > 2 > 1 (minute = k)
  const pos = Object.fromEntries(target4.map((r) => [r.follower_id, [r.pos_by_followers, r.pos_by_subscribed]]))
  assert.equal(pos, { [id(1)]: [0, 3], [id(2)]: [1, 2], [id(3)]: [2, 1], [id(5)]: [3, 0] })
})

const Categorized = suite('categorized_followers_count')

Categorized('categorized_followers_count :: All, Projects, VC, Influencers, others by cnt, NoCategory', async () => {
  const list = async (k: number) =>
    (await rows('categorized_followers_count', `select * from t where target_id = ${id(k)} order by ordinal`)).map(
      (r) => [r.name, r.category_id, Number(r.cnt)],
    )
  // target 4 ← 1 (VC), 2 (VC, Influencers), 3 (Founders), 5 (Influencers)
  assert.equal(await list(4), [
    ['All', null, 4], ['Projects', 3, 0], ['Venture Capitals', 1, 2], ['Influencers', 7, 2], ['Founders', 2, 1],
    ['Exchanges', 4, 0], ['Auditors', 5, 0], ['Media', 6, 0], ['Angels', 8, 0], ['NoCategory', 0, 0],
  ])
  // target 7 ← 1 (VC), 6 (Angels): Angels (1) moves before the zero categories
  assert.equal((await list(7)).slice(4, 6), [['Angels', 8, 1], ['Founders', 2, 0]])
  // target 10 ← 11 (no category)
  assert.equal((await list(10))[9], ['NoCategory', 0, 1])
  const targets = await rows('categorized_followers_count', 'select distinct target_id from t order by 1')
  assert.equal(targets.map((r) => r.target_id), [1, 2, 4, 5, 6, 7, 10, 11, 12, 13].map(id))
})

const Followers = suite('followers_count_history, followers_diff')

Followers('followers_count_history :: monitored accounts only, newest day first', async () => {
  assert.equal(
    (await rows('followers_count_history')).map((r) => [r.account_idx, r.date, Number(r.followers_count)]),
    [
      [0, '2026-11-22', 5000],
      [3, '2026-11-22', 1200], [3, '2026-11-20', 1150], [3, '2026-11-16', 1100], [3, '2026-11-01', 1000],
      [4, '2026-11-10', 800], [4, '2026-10-20', 700],
    ],
  )
})

Followers('followers_diff :: oldest scan in the window, newest minus oldest, 0 with fewer than two', async () => {
  const diff = Object.fromEntries(
    (await rows('followers_diff')).map((r) => [r.platform_id, [r.week_date, Number(r.week_diff), r.month_date, Number(r.month_diff)]]),
  )
  assert.equal(Object.keys(diff).sort(), [1, 2, 3, 4, 5, 6, 8, 9, 10, 11].map(id).sort())
  assert.equal(diff[id(4)], ['2026-11-16', 100, '2026-11-01', 200])
  assert.equal(diff[id(1)], ['2026-11-22', 0, '2026-11-22', 0])
  assert.equal(diff[id(5)], [null, 0, '2026-11-10', 0]) // 10-20 is outside the 30-day window 10-24..11-22
  assert.equal(diff[id(2)], [null, 0, null, 0])
})

const Friendship = suite('friendship logs')

Friendship('friendship_followed :: events of smart followers, newest first', async () => {
  assert.equal(
    (await rows('friendship_followed')).map((r) => [r.target_idx, r.follower_id, r.action, r.event_date]),
    [
      [idx(5), id(3), 'Followed', '2026-11-22'], [idx(5), id(1), 'Unfollowed', '2026-11-21'],
      [idx(6), id(5), 'Followed', '2026-11-19'], [idx(6), id(5), 'Unfollowed', '2026-11-15'],
      [idx(7), id(6), 'Followed', '2026-11-22'], [idx(7), id(1), 'Followed', '2026-11-16'],
      [idx(12), id(2), 'Followed', '2026-11-20'], [idx(13), id(1), 'Followed', '2026-11-21'],
    ],
  )
})

Friendship('friendship_following :: tracked named targets, Following first, id as string, main or graph score', async () => {
  const scores = (await rows('accounts')).map((r) => r.platform_score)
  assert.equal(
    (await rows('friendship_following')).map((r) => [r.source_idx, r.action, r.followed_id, r.event_date, r.platform_score]),
    [
      // 1 → 13 is dropped (friend-only), 2 → 12 is dropped (no name)
      [idx(1), 'Following', id(7), '2026-11-16', scores[idx(7)]],
      [idx(1), 'Unfollowing', id(5), '2026-11-21', scores[idx(5)]],
      [idx(3), 'Following', id(5), '2026-11-22', scores[idx(5)]],
      [idx(5), 'Following', id(6), '2026-11-19', scores[idx(6)]],
      [idx(5), 'Unfollowing', id(6), '2026-11-15', scores[idx(6)]],
      [idx(6), 'Following', id(7), '2026-11-22', scores[idx(7)]],
      // source 8 is suspended but monitored: its log is kept; 14 has score 0 → its graph-side score 55.5
      [idx(8), 'Following', id(4), '2026-11-21', scores[idx(4)]],
      [idx(8), 'Following', id(14), '2026-11-21', 55.5],
    ],
  )
  assert.is(scores[idx(14)], 0)
})

const SmartFollows = suite('smart_follows')

SmartFollows('smart_follows :: lists per days and bucket with alpha, totals and ranks', async () => {
  const list = await rows('smart_follows')
  const summary = list.map((r) => [r.days, r.bucket, r.rank_alpha, r.platform_id, Number(r.new_alpha_followers), Number(r.new_alpha_followers_diff), Number(r.total_alpha_followers)])
  const all7 = [[7, 2, 2, 2], [5, 1, 1, 2], [6, 1, 1, 1], [12, 1, 1, 1], [13, 1, 1, 1]]
  const expand = (days: number, bucket: string, items: number[][]) =>
    items.map(([k, n, d, t], i) => [days, bucket, i + 1, id(k), n, d, t])
  assert.equal(summary, [
    // day 1 window = 11-22 (3→5, 6→7), previous = 11-21 (1→13)
    ...expand(1, 'all', [[5, 1, 1, 2], [7, 1, 1, 2]]),
    ...expand(1, 'angels', [[7, 1, 1, 1]]),
    // 7-day window 11-16..11-22 holds every follow; previous window 11-09..11-15 holds none
    ...expand(7, 'all', all7),
    ...expand(7, 'angels', [[7, 1, 1, 1]]),
    ...expand(7, 'inf', [[6, 1, 1, 1], [12, 1, 1, 1]]),
    ...expand(7, 'vc', [[7, 1, 1, 1], [12, 1, 1, 1], [13, 1, 1, 1]]),
    ...expand(30, 'all', all7),
    ...expand(30, 'angels', [[7, 1, 1, 1]]),
    ...expand(30, 'inf', [[6, 1, 1, 1], [12, 1, 1, 1]]),
    ...expand(30, 'vc', [[7, 1, 1, 1], [12, 1, 1, 1], [13, 1, 1, 1]]),
  ])
})

SmartFollows('smart_follows :: item fields, follower diff against the count days ago, top followers by score', async () => {
  const scores = Object.fromEntries((await rows('accounts')).map((r) => [r.platform_id, r.platform_score]))
  const [infl] = await rows('smart_follows', `select * from t where days = 30 and bucket = 'all' and platform_id = ${id(5)}`)
  assert.equal(
    [infl.username, infl.name, infl.description, infl.profile_url, infl.profile_image, infl.blue_verified],
    ['Infl', 'Influencer', 'bio 5', '/Infl', 'https://img/5.png', false],
  )
  assert.equal([infl.current_followers, infl.followers_diff, infl.platform_score_diff], ['800', '100', 0]) // 800 − 700 (10-20)
  const [gem] = await rows('smart_follows', `select * from t where days = 7 and bucket = 'all' and platform_id = ${id(7)}`)
  assert.equal(gem.top_alpha_followers, [
    { name: 'VC One', username: 'VcOne', image: 'https://img/1.png', score: scores[id(1)], verified: true },
    { name: 'Angel', username: 'Angel', image: '', score: scores[id(6)], verified: false },
  ])
  const [noName] = await rows('smart_follows', `select * from t where days = 7 and bucket = 'all' and platform_id = ${id(12)}`)
  assert.equal([noName.name, noName.profile_image], ['', ''])
  const all7 = await rows('smart_follows', `select * from t where days = 7 and bucket = 'all' order by rank_alpha`)
  const byScore = [...all7].sort((a, b) => (b.platform_score as number) - (a.platform_score as number))
  assert.equal(byScore.map((r) => r.pos_by_score), [0, 1, 2, 3, 4])
  const byFollowers = [...all7].sort((a, b) => Number(b.current_followers) - Number(a.current_followers))
  assert.equal(byFollowers.map((r) => r.pos_by_followers), [0, 1, 2, 3, 4])
})

const Mentions = suite('tweets, mentions')

Mentions('tweets :: up to the end of the build date, newest first, short links replaced or stripped', async () => {
  assert.equal(
    (await rows('tweets')).map((r) => [r.tweet_idx, r.tweet_id, r.author_idx, r.created_at_iso, r.text, Number(r.views)]),
    [
      [0, id(502), null, '2026-11-22T22:30:00+00:00', null, 5], // author 99 unknown; 23:30+01:00 is still 11-22 UTC
      [1, id(501), idx(4), '2026-11-21T08:00:00+00:00', 'Big news example.com/a and example.com/b and', 100],
      [2, id(503), idx(13), '2026-11-20T12:00:00+00:00', 'gm', 7],
      // 504 (11-23) is after the build date
    ],
  )
})

Mentions('mentions :: one row per known mentioned account and tweet, no self-mentions', async () => {
  assert.equal(
    (await rows('mentions')).map((r) => [r.target_id, r.tweet_idx, r.author_id, Number(r.epoch_s)]),
    [
      [id(1), 1, id(4), Date.parse('2026-11-21T08:00:00Z') / 1000],
      [id(7), 0, id(99), Date.parse('2026-11-22T22:30:00Z') / 1000],
      [id(7), 1, id(4), Date.parse('2026-11-21T08:00:00Z') / 1000],
      [id(7), 2, id(13), Date.parse('2026-11-20T12:00:00Z') / 1000],
    ],
  )
})

const Extra = suite('extra operations (docs/extra-operations.md)')

Extra('smart_mentions :: the mentions whose author is smart', async () => {
  // 501 by 4 (smart) mentions 1 and 7; 502 (unknown author) and 503 (friend-only author) drop out
  assert.equal((await rows('smart_mentions')).map((r) => [r.target_id, r.tweet_idx, r.author_id]), [
    [id(1), 1, id(4)],
    [id(7), 1, id(4)],
  ])
})

Extra('score_history :: this build\'s scores > 0 when no earlier history exists; the build date is the scored date', async () => {
  const scored = (await rows('accounts')).filter((a) => (a.platform_score as number) > 0)
  assert.equal(
    (await rows('score_history_daily')).map((r) => [r.account_idx, r.date, r.platform_score, r.rank]),
    scored.map((a) => [a.account_idx, BUILD_DATE, a.platform_score, a.rank]),
  )
  assert.equal((await rows('score_dates')).map((r) => r.date), [BUILD_DATE])
})

Extra('score_changes :: the 20 largest moves of a window; score_explanations counts all of them', async () => {
  // 25 more monitored accounts, each following SmallGem (7) from 11-20: 27 arrivals within 7 days
  const raw = baseRaw()
  for (let k = 200; k < 225; k++) {
    raw['accounts.parquet'].push([id(k), `Fan${k}`, `fan${k}`, `Fan ${k}`, null, null, false, true, false, true, 10 + k])
    raw['follow_scans.parquet'].push(
      ['2026-11-10', '2026-11-10 05:00:00', id(k), []],
      ['2026-11-20', '2026-11-20 05:00:00', id(k), [id(7), id(k === 224 ? 200 : k + 1)]],
    )
  }
  // the backfill scores the dates back to 11-15, the 7-day look-back: a window is explained only from a scored day
  const { dir } = await buildSnapshot({ rawDir: await writeRaw(tempDir('changes-cap-raw'), raw), snapshotsDir: tempDir('changes-cap'), date: BUILD_DATE, backfillDays: 7 })
  const gem = await readParquet(path.join(dir, 'score_changes.parquet'), `select position, points from t where platform_id = ${id(7)} and days = 7`)
  assert.equal(gem.map((r) => r.position), [...Array(20).keys()])
  for (let p = 1; p < gem.length; p++) assert.ok(Math.abs(gem[p - 1].points as number) >= Math.abs(gem[p].points as number))
  const [explained] = await readParquet(path.join(dir, 'score_explanations.parquet'), `select arrived_7d, left_7d from t where platform_id = ${id(7)}`)
  assert.equal(explained, { arrived_7d: 27, left_7d: 0 })
})

Extra('trending :: smart-follower growth against the follow state days ago (a first scan\'s follows are no growth), no score metric without history', async () => {
  const growth = (await rows('trending')).map((r) => [r.days, r.metric, r.rank, r.platform_id, r.growth, Number(r.smart_followers_diff), r.platform_score_diff])
  const expand = (days: number, items: [number, number][]) =>
    items.map(([k, g], i) => [days, 'smart_followers', i + 1, id(k), g, g, 0])
  assert.equal(growth, [
    // 11-21: 3 → 5 and 6 → 7 are not yet there
    ...expand(1, [[5, 1], [7, 1]]),
    // 11-15: 5 had just unfollowed 6; 1 → 7, 1 → 13, 2 → 12 came later; 5 lost 1 and gained 3
    ...expand(7, [[7, 2], [6, 1], [12, 1], [13, 1]]),
    // 10-23, before any scan: the follows of each follower's first scan count as held then, so only the follows
    // made since are growth (1 → 7, 6 → 7, 2 → 12, 1 → 13); 5 lost 1 and gained 3; 5 → 6 was unfollowed and followed again
    ...expand(30, [[7, 2], [12, 1], [13, 1]]),
  ])
})

Extra('top_researched :: lookups per window ending on the build date, known accounts only', async () => {
  assert.equal((await rows('top_researched')).map((r) => [r.days, r.rank, r.platform_id, Number(r.lookups)]), [
    [1, 1, id(4), 2], [1, 2, id(1), 1],
    [7, 1, id(1), 3], [7, 2, id(4), 2], [7, 3, id(7), 1],
    [30, 1, id(1), 3], [30, 2, id(4), 2], [30, 3, id(7), 1],
  ])
})

for (const s of [Accounts, Reference, SmartFollowers, Categorized, Followers, Friendship, SmartFollows, Mentions, Extra]) s.run()
