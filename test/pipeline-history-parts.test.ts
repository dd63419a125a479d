/**
 * History tables in parts (docs/snapshot.md, "History parts"): a closed month, or a week of the build date's month. A
 * night writes the parts whose rows changed and hard-links the others from the snapshot `current` points to, and its
 * parts equal a fold of the same days from scratch; the first night of a month writes the month that closed as one
 * part; a late day in a past month writes that month again, and so does a tweet delivered again into it; a part
 * missing from `current` is written, not linked; the server refuses a snapshot of the layout before.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import fs from 'node:fs'
import path from 'node:path'
import { buildSnapshot } from '../pipeline/build.ts'
import { historyBasis } from '../pipeline/history-parts.ts'
import { PART_FILE } from '../pipeline/history-tables.ts'
import { SERVING_FORMAT } from '../pipeline/serving-writer.ts'
import { baseRaw, id, readParquet, tempDir, writeDailyRaw, writeRaw } from './_fixtures.ts'
import { loadSnapshot } from '../server/snapshot/load.ts'
import { snapshotQuery } from './_setup.ts'
import { builtOnce, copyNights } from './_state.ts'

/** The raw day folders; baseRaw's follower counts fall on October 20th and on November 1st, 10th, 16th, 20th and 22nd. */
const DAYS = ['2026-10-20', '2026-11-01', '2026-11-10', '2026-11-16', '2026-11-20', '2026-11-21', '2026-11-22']

const part = (dir: string, period: string) => path.join(dir, 'followers_count_history', `period=${period}`, PART_FILE)
const servingPart = (dir: string, period: string) => path.join(dir, 'serving', 'followers_count_history', `period=${period}`, 'day.bin')
const inode = (file: string) => fs.statSync(file).ino

async function nightsFrom(name: string) {
  const raw = await writeDailyRaw(tempDir(`${name}-raw`), baseRaw(), DAYS)
  const snapshots = tempDir(name)
  // a night in October, so that a day folder delivered late into October has a built day to rewind to
  const october = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-10-20' })
  const first = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-21' })
  const second = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-22' })
  return { raw, snapshots, october, first, second }
}

/** The nights of nightsFrom for the tests that only read them, built once. */
let shared: ReturnType<typeof nightsFrom> | undefined
const readOnlyNights = () => (shared ??= nightsFrom('parts-read'))

/** The same nights in folders of the test's own (raw day folders and snapshots copied, `current` kept relative). */
async function copiedNights(name: string) {
  const built = await readOnlyNights()
  const raw = copyNights(built.raw, `${name}-raw`)
  const snapshots = copyNights(built.snapshots, name)
  const moved = <T extends { dir: string }>(night: T): T => ({ ...night, dir: path.join(snapshots, path.basename(night.dir)) })
  return { raw, snapshots, october: moved(built.october), first: moved(built.first), second: moved(built.second) }
}

const periods = (built: { manifest: { parts: Record<string, { period: string }[]> } }, table = 'followers_count_history') =>
  built.manifest.parts[table].map((p) => p.period)

const History = suite('history parts')

History("a night links the parts that did not change and writes the build date's week", async () => {
  const { first, second } = await readOnlyNights()
  // October closed: one part; November, the build date's month: a part per week with rows (1st, 8th, 15th, 22nd)
  const november = ['2026-11-01', '2026-11-08', '2026-11-15']
  assert.equal(periods(first), ['2026-10', ...november])
  assert.equal(periods(second), ['2026-10', ...november, '2026-11-22'])
  // the same rows: the same files (one inode, two names)
  for (const period of ['2026-10', ...november]) {
    assert.is(inode(part(second.dir, period)), inode(part(first.dir, period)), period)
    assert.is(inode(servingPart(second.dir, period)), inode(servingPart(first.dir, period)), period)
  }
  assert.not.ok(fs.existsSync(part(first.dir, '2026-11-22')))
  // the score history alike (its changes of score; on the 22nd, Proj's: its count of that day moves its median):
  // the earlier parts linked
  const scores = (dir: string, period: string) => path.join(dir, 'score_history', `period=${period}`, PART_FILE)
  assert.equal(periods(first, 'score_history'), ['2026-11-08', '2026-11-15'])
  assert.equal(periods(second, 'score_history'), [...periods(first, 'score_history'), '2026-11-22'])
  for (const period of periods(first, 'score_history')) assert.is(inode(scores(second.dir, period)), inode(scores(first.dir, period)), period)
  // the linked part is listed in the manifest like a written one
  const listed = second.manifest.files.find((f) => f.file === 'followers_count_history/period=2026-10/data.parquet')
  assert.ok(listed, 'the linked month is in the manifest')
  assert.equal(listed, first.manifest.files.find((f) => f.file === listed.file))
  assert.equal(await readParquet(part(second.dir, '2026-10')), [{ platform_id: id(5).toString(), date: '2026-10-20', followers_count: '700', period: '2026-10' }])
  const day = await readParquet(part(second.dir, '2026-11-22'))
  assert.equal([...new Set(day.map((r) => `${r.date} in ${r.period}`))], ['2026-11-22 in 2026-11-22'])

  // every monitored account's series, as the view over the parts gives it
  const query = await snapshotQuery(second.dir)
  const rows = await query<{ platform_id: string; date: string; followers_count: string }>(
    `select platform_id::varchar as platform_id, strftime(date, '%Y-%m-%d') as date, followers_count::varchar as followers_count
     from followers_count_history where platform_id in (${id(4)}, ${id(5)})`,
  )
  assert.equal(rows.map((r) => [r.platform_id, r.date, r.followers_count]), [
    [String(id(4)), '2026-11-22', '1200'], [String(id(4)), '2026-11-20', '1150'], [String(id(4)), '2026-11-16', '1100'],
    [String(id(4)), '2026-11-01', '1000'], [String(id(5)), '2026-11-10', '800'], [String(id(5)), '2026-10-20', '700'],
  ])
})

/** Nights of the 16th and the 20th of November over DAYS, built once (copies; the nights' folders read only). */
const midMonthNights = builtOnce(async () => {
  const raw = await writeDailyRaw(tempDir('parts-week-raw'), baseRaw(), DAYS)
  const snapshots = tempDir('parts-week')
  const sixteenth = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-16' })
  const twentieth = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-20' })
  return { raw, snapshots, sixteenth, twentieth }
})

History("the build date's week is written again when a night adds a day to it", async () => {
  const { sixteenth, twentieth } = await midMonthNights('parts-week-read')
  assert.equal(periods(sixteenth), ['2026-10', '2026-11-01', '2026-11-08', '2026-11-15'])
  assert.equal(periods(twentieth), periods(sixteenth))
  assert.is(inode(part(twentieth.dir, '2026-11-08')), inode(part(sixteenth.dir, '2026-11-08')))
  assert.is.not(inode(part(twentieth.dir, '2026-11-15')), inode(part(sixteenth.dir, '2026-11-15')))
  const week = (built: { dir: string }) => readParquet(part(built.dir, '2026-11-15')).then((rows) => [...new Set(rows.map((r) => r.date))].sort())
  assert.equal([await week(sixteenth), await week(twentieth)], [['2026-11-16'], ['2026-11-16', '2026-11-20']])
})

History('a night after current was pointed back at an older night reads again the parts of the days after that night', async () => {
  const { raw, snapshots, sixteenth } = await midMonthNights('parts-rollback')
  await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-21' })
  const night = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-22' })
  // an operator's rollback of current to the night of 11-16, then the 22nd built again
  fs.rmSync(path.join(snapshots, 'current'))
  fs.symlinkSync(sixteenth.snapshotId, path.join(snapshots, 'current'))
  const again = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-22' })
  assert.equal(again.manifest.parts, night.manifest.parts)
  for (const period of periods(night)) assert.equal(await readParquet(part(again.dir, period)), await readParquet(part(night.dir, period)), period)
  // the week of the 15th holds the counts of the 16th and of the 20th, not those of the night current pointed to only
  const days = (rows: Record<string, unknown>[]) => [...new Set(rows.map((r) => String(r.date)))].sort()
  assert.equal(days(await readParquet(part(again.dir, '2026-11-15'))), ['2026-11-16', '2026-11-20'])
})

History('the first night of a month writes the month that closed as one part, in place of its weeks', async () => {
  const { october, first } = await readOnlyNights()
  assert.equal(periods(october), ['2026-10-15'])
  assert.equal(periods(first)[0], '2026-10')
  assert.equal(await readParquet(part(first.dir, '2026-10')), [{ platform_id: id(5).toString(), date: '2026-10-20', followers_count: '700', period: '2026-10' }])
  assert.not.ok(fs.existsSync(path.join(first.dir, 'followers_count_history', 'period=2026-10-15')))
  assert.not.ok(fs.existsSync(path.join(first.dir, 'serving', 'followers_count_history', 'period=2026-10-15')))
})

History('nights across a month boundary give the same parts, row for row, as a fold of the same days from scratch', async () => {
  const { raw, second } = await readOnlyNights()
  const full = await buildSnapshot({ rawDir: raw, snapshotsDir: tempDir('parts-rebuild-full'), date: '2026-11-22', rebuild: true })
  assert.equal(periods(second), periods(full))
  for (const period of periods(full)) {
    assert.equal(await readParquet(part(second.dir, period)), await readParquet(part(full.dir, period)), period)
  }
  assert.equal(second.manifest.parts.followers_count_history, full.manifest.parts.followers_count_history)
})

History('a day folder delivered late into a past month writes that month again', async () => {
  const { raw, snapshots, second } = await copiedNights('parts-late')
  const late = baseRaw()
  late['follower_counts.parquet'] = [['2026-10-25', id(5), 750]]
  await writeDailyRaw(raw, late, ['2026-10-25'])
  const third = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-22' })
  assert.is(third.manifest.state.rewound_to, '2026-10-25')
  assert.is.not(inode(part(third.dir, '2026-10')), inode(part(second.dir, '2026-10')))
  assert.equal((await readParquet(part(third.dir, '2026-10'))).map((r) => [r.date, r.followers_count]), [['2026-10-25', '750'], ['2026-10-20', '700']])
})

History('a part missing from the current snapshot is written again, not linked', async () => {
  const { raw, snapshots, second } = await copiedNights('parts-missing')
  // a rerun of the 22nd carries the parts before its week; one that cannot be linked is computed, and those after it
  assert.is(historyBasis(second.dir, '2026-11-22', '2026-11-22').since, '2026-11-22')
  fs.rmSync(servingPart(second.dir, '2026-10'))
  assert.is(historyBasis(second.dir, '2026-11-22', '2026-11-22').since, '2026-10-01')
  const rerun = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-22' })
  assert.ok(fs.existsSync(servingPart(rerun.dir, '2026-10')))
  assert.is.not(inode(part(rerun.dir, '2026-10')), inode(part(second.dir, '2026-10')))
  assert.is(inode(part(rerun.dir, '2026-11-22')), inode(part(second.dir, '2026-11-22')))
})

History('tweets: a week (UTC) is linked while its tweets are unchanged, written again when one is delivered again, in a closed month too; tweet_idx runs across the parts', async () => {
  const october = [id(505), id(4), '2026-10-20T09:00:00+00:00', 'october', [], 3, 0, 0, 10, [id(7)]]
  // the 1st of November in Paris is still October in UTC
  const halloween = [id(506), id(13), '2026-11-01T00:30:00+01:00', 'halloween', [], 0, 0, 0, 1, [id(7)]]
  const rows = baseRaw()
  rows['tweets.parquet'].push(october, halloween)
  const raw = await writeDailyRaw(tempDir('tweet-parts-raw'), rows, [...DAYS, '2026-10-31'].sort())
  // delivered again on the 22nd with grown counters
  const own = rows['tweets.parquet'].filter((t) => String(t[2]).startsWith('2026-11-22'))
  await writeRaw(path.join(raw, '2026-11-22'), { 'tweets.parquet': [...own, october.map((v, i) => (i === 5 ? 9 : v))] })
  const snapshots = tempDir('tweet-parts')
  const built = []
  for (const date of ['2026-10-20', '2026-11-20', '2026-11-21', '2026-11-22']) built.push(await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date }))
  const [, first, second, third] = built
  const tweetsPart = (dir: string, period: string) => path.join(dir, 'tweets', `period=${period}`, PART_FILE)
  const tweetTexts = (dir: string, period: string) => path.join(dir, 'serving', 'tweets', `period=${period}`, 'text.utf8.bin')
  // a part per week of creation (UTC) in every month, a closed month's too: 15–21 and 29–31 October
  assert.equal(periods(second, 'tweets').slice(0, 2), ['2026-10-15', '2026-10-29'])
  assert.ok(periods(second, 'tweets').slice(2).every((p) => /^2026-11-\d\d$/.test(p)), periods(second, 'tweets').join())
  for (const week of ['2026-10-15', '2026-10-29']) {
    assert.is(inode(tweetsPart(second.dir, week)), inode(tweetsPart(first.dir, week)), week)
    assert.is(inode(tweetTexts(second.dir, week)), inode(tweetTexts(first.dir, week)), week)
  }
  // the week of the tweet delivered again is written again, the other week of its month is not
  assert.is.not(inode(tweetsPart(third.dir, '2026-10-15')), inode(tweetsPart(second.dir, '2026-10-15')))
  assert.is(inode(tweetsPart(third.dir, '2026-10-29')), inode(tweetsPart(second.dir, '2026-10-29')))
  assert.equal((await readParquet(tweetsPart(third.dir, '2026-10-15'))).map((r) => [r.text, r.favorites]), [['october', '9']])
  assert.equal((await readParquet(tweetsPart(third.dir, '2026-10-29'))).map((r) => [r.text, r.favorites]), [['halloween', '0']])

  // created_at desc across the parts: the view's tweet_idx, the mentions' and the server's are the same
  const query = await snapshotQuery(third.dir)
  const mentioned = await query<{ tweet_idx: number; tweet_id: string }>(
    `select m.tweet_idx, t.tweet_id::varchar as tweet_id from mentions m join tweets t using (tweet_idx)
     where m.target_id = ${id(7)} order by m.tweet_idx`,
  )
  const order = [id(502), id(501), id(503), id(506), id(505)].map(String)
  assert.equal(mentioned.map((r) => [r.tweet_idx, r.tweet_id]), order.map((tweet, k) => [k, tweet]))
  const snapshot = await loadSnapshot(third.dir)
  const { tweets } = snapshot
  assert.equal([...tweets.tweetId].map(String), order)
  assert.equal([tweets.text.at(0), tweets.text.at(3), tweets.text.at(4), tweets.favorites[4]], [null, 'halloween', 'october', 9])
  // the server's mentions, built from the parts' account references, are the views' rows, account by account
  for (const [view, lists] of [['mentions', snapshot.mentions], ['smart_mentions', snapshot.smartMentions]] as const) {
    const rows = await query<{ target_idx: number; tweet_idx: number; author_idx: number | null }>(`select target_idx, tweet_idx, author_idx from ${view}`)
    const served: number[][] = []
    for (let t = 0; t + 1 < lists.offsets.length; t++) {
      for (let r = lists.offsets[t]; r < lists.offsets[t + 1]; r++) served.push([t, lists.tweetIdx[r], lists.authorIdx[r]])
    }
    assert.ok(rows.length > 2, view)
    assert.equal(served, rows.map((r) => [Number(r.target_idx), Number(r.tweet_idx), Number(r.author_idx ?? -1)]), view)
  }
})

History('the server refuses a snapshot written before the score history had parts (serving format 6), saying to build', async () => {
  const { second } = await readOnlyNights()
  const old = tempDir('parts-format-old')
  fs.cpSync(second.dir, old, { recursive: true })
  const file = path.join(old, 'serving', 'columns.json')
  fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), format: 6 }))
  await loadSnapshot(old).then(
    () => assert.unreachable('a format 6 snapshot must not load'),
    (error) => assert.ok(String(error).includes(`serving columns of format 6, this server reads format ${SERVING_FORMAT}: build a snapshot with this version (npm run build)`), String(error)),
  )
  assert.is((await loadSnapshot(second.dir)).followersCountHistory.parts.length, 5)
})

History('the server refuses a snapshot whose account map does not cover its tweets parts', async () => {
  const { second } = await readOnlyNights()
  const broken = tempDir('parts-accounts-broken')
  fs.cpSync(second.dir, broken, { recursive: true })
  const file = path.join(broken, 'serving', 'tweets_accounts', 'columns.json')
  const columns = JSON.parse(fs.readFileSync(file, 'utf8'))
  columns.columns.account_idx.length -= 1
  fs.writeFileSync(file, JSON.stringify(columns))
  await loadSnapshot(broken).then(
    () => assert.unreachable('a snapshot whose account map is short must not load'),
    (error) => assert.match(String(error), /serving\/tweets_accounts does not match the tweets parts' ids/),
  )
})

History.run()
