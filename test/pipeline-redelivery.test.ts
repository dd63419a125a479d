/**
 * A tweet delivered again on later days (docs/raw-data.md): each night serves its latest delivery as of that night,
 * as a fold of the same folders from scratch does, through reruns, a corrected folder, and a state written before
 * the state marked superseded deliveries or kept their content hashes.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import path from 'node:path'
import { buildSnapshot } from '../pipeline/build.ts'
import { baseRaw, daysBetween, id, readSnapshot, tempDir, writeDailyRaw, writeRaw } from './_fixtures.ts'
import { alterState, assertSameMarts, builtOnce, marts, nights, queryState } from './_state.ts'

const DAYS = daysBetween('2026-11-19', '2026-11-22')
const TWEET_MARTS = ['tweets', 'mentions', 'smart_mentions']
/** tweet 503 of the fixture: written 11-20 with 1 favorite */
const TWEET = 503

/** Rewrite the tweets of `day`'s folder: the fixture's tweets written that day, then 503 again with `favorites`. */
async function deliver(raw: string, day: string, favorites?: number) {
  const tweets = baseRaw()['tweets.parquet']
  const own = tweets.filter((t) => new Date(String(t[2])).toISOString().slice(0, 10) === day)
  const again = favorites === undefined ? [] : [tweets.find((t) => t[0] === id(TWEET))!.map((v, i) => (i === 5 ? favorites : v))]
  await writeRaw(path.join(raw, day), { 'tweets.parquet': [...own, ...again] })
}

/** Day folders 11-19 to 11-22; 503 delivered again on the days of `again` (day → favorites). */
async function rawWith(name: string, again: Record<string, number>) {
  const raw = await writeDailyRaw(tempDir(`${name}-raw`), baseRaw(), DAYS)
  for (const [day, favorites] of Object.entries(again)) await deliver(raw, day, favorites)
  return raw
}

const favorites = async (dir: string) =>
  (await readSnapshot(dir, 'tweets', `select favorites from t where tweet_id = ${id(TWEET)}`)).map((r) => Number(r.favorites))

/** The tweet marts of `dir` equal those of a fold of the same folders up to `date` from scratch (scores aside). */
async function assertAsFromScratch(raw: string, dir: string, date: string) {
  const full = await buildSnapshot({ rawDir: raw, snapshotsDir: tempDir('again-full'), date, rebuild: true })
  assertSameMarts(await marts(dir, TWEET_MARTS), await marts(full.dir, TWEET_MARTS))
}

/** The nights of `days` over rawWith(`again`), built once for the tests that go on from them (copies; `last` read only). */
const nightsOf = (name: string, again: Record<string, number>, days: string[]) =>
  builtOnce(async () => {
    const raw = await rawWith(name, again)
    const snapshots = tempDir(name)
    return { raw, snapshots, last: await nights(raw, snapshots, days) }
  })
const deliveredTwice = nightsOf('again-twice', { '2026-11-21': 5, '2026-11-22': 9 }, DAYS)
const deliveredOnce = nightsOf('again-once', { '2026-11-21': 5 }, DAYS.slice(0, 3))

const Again = suite('tweets delivered again')

Again('redelivered :: the latest delivery is served, through reruns of earlier days and an older state', async () => {
  const { raw, snapshots, last } = await deliveredTwice('again')
  assert.equal(await favorites(last.dir), [9])
  await assertAsFromScratch(raw, last.dir, '2026-11-22')
  // a rerun of an earlier day serves the delivery of that day; the nights forward, the latest again
  assert.equal(await favorites((await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-20' })).dir), [1])
  assert.equal(await favorites((await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-21' })).dir), [5])
  assertSameMarts(await marts((await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-22' })).dir), await marts(last.dir))
  // a state that keeps every delivery without marking the superseded ones (an earlier version's) is brought up to date
  await alterState(snapshots, 'alter table tweets drop column superseded_on')
  assertSameMarts(await marts((await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-22' })).dir), await marts(last.dir))
  assert.equal(await queryState(snapshots, `select superseded_on::varchar as s from st.tweets where tweet_id = ${id(TWEET)} order by ingest_date`),
    [{ s: '2026-11-21' }, { s: '2026-11-22' }, { s: null }])
  // and one without each delivery's content hash: hashed as the fold hashes, its tweets parts keep their fingerprints
  await alterState(snapshots, 'alter table tweets drop column row_hash')
  const hashed = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-22' })
  assertSameMarts(await marts(hashed.dir), await marts(last.dir))
  assert.equal(hashed.manifest.parts.tweets, last.manifest.parts.tweets)
})

Again('again, then not :: every night serves the one latest delivery, as a fold from scratch does', async () => {
  const { raw, snapshots, last } = await deliveredOnce('again-once-22')
  assert.equal(await favorites(last.dir), [5], '2026-11-21')
  const night = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-22' })
  assert.equal(await favorites(night.dir), [5], '2026-11-22')
  await assertAsFromScratch(raw, night.dir, '2026-11-22')
})

Again('corrected :: a folder corrected and its day built again serves the delivery before it, and so do the nights after', async () => {
  const { raw, snapshots } = await deliveredTwice('again-fixed')
  // the crawler's folder of 11-22 corrected: 503 is not in it
  await deliver(raw, '2026-11-22')
  const rerun = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-22' })
  assert.equal(await favorites(rerun.dir), [5])
  await writeDailyRaw(raw, baseRaw(), ['2026-11-23'])
  const next = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-23' })
  assert.equal(await favorites(next.dir), [5])
  await assertAsFromScratch(raw, next.dir, '2026-11-23')
})

Again('older state :: a state from before the marks, whose re-delivered tweet comes no more, serves its latest delivery', async () => {
  const { raw, snapshots } = await deliveredOnce('again-old')
  await alterState(snapshots, 'alter table tweets drop column superseded_on')
  const night = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-22' })
  assert.equal(await favorites(night.dir), [5])
  await assertAsFromScratch(raw, night.dir, '2026-11-22')
})

Again.run()
