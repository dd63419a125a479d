/**
 * The state carried between nights (docs/pipeline.md): nightly builds over day folders equal a fold of the same days
 * from scratch, and an import of the same days in the single-folder layout, mart for mart and row for row; a rerun gives the same rows; a missing raw day is a gap that keeps
 * the state of accounts not scanned; missed days are replayed in order; a build killed after committing its day but
 * before publishing leaves the state of the day before and `current` as they were.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import fs from 'node:fs'
import path from 'node:path'
import { buildSnapshot } from '../pipeline/build.ts'
import { MARTS } from '../pipeline/models.ts'
import { baseRaw, daysBetween, flattenRaw, id, readParquet, tempDir, writeDailyRaw } from './_fixtures.ts'
import { alterState, assertSameMarts, builtOnce, copyNights, marts, nights, queryState } from './_state.ts'
import { buildKilledAt } from './_killed-build.ts'

const DAYS = daysBetween('2026-11-10', '2026-11-22')
const daily = writeDailyRaw(tempDir('state-raw'), baseRaw(), DAYS)

/** The folders an on-time crawler writes from 11-13 to 11-19, but for 11-17 (a gap night). */
const DELIVERED = daysBetween('2026-11-13', '2026-11-19').filter((d) => d !== '2026-11-17')

/** Nights 11-13 to 11-18 built without the folder of 11-15 (of DELIVERED), which then arrives late (copies). */
const lateDelivery = builtOnce(async () => {
  const raw = await writeDailyRaw(tempDir('state-late-raw'), baseRaw(), DELIVERED.filter((d) => d !== '2026-11-15'))
  const snapshots = tempDir('state-late')
  await nights(raw, snapshots, daysBetween('2026-11-13', '2026-11-18'))
  await writeDailyRaw(raw, baseRaw(), ['2026-11-15'])
  return { raw, snapshots }
})

let onTimeNights: Promise<{ raw: string; snapshots: string; last: Awaited<ReturnType<typeof nights>>; untilNight18: string }> | undefined
/**
 * The nights 11-13 to 11-19 over DELIVERED on time, built once for the tests that compare with them or go on from
 * them: the raw folder (read only), the snapshots folder, its last night, and a copy of the snapshots folder as it
 * was after the night of 11-18.
 */
function onTime() {
  onTimeNights ??= (async () => {
    const raw = await writeDailyRaw(tempDir('state-on-time-raw'), baseRaw(), DELIVERED)
    const snapshots = tempDir('state-on-time')
    await nights(raw, snapshots, daysBetween('2026-11-13', '2026-11-18'))
    const untilNight18 = copyNights(snapshots, 'state-on-time-18')
    const last = await nights(raw, snapshots, ['2026-11-19'])
    return { raw, snapshots, last, untilNight18 }
  })()
  return onTimeNights
}

/** The folders of 11-10 to 11-14, and a first build dated 11-15 (its folder not come yet), then 11-16 (copies). */
const beforeFolders = builtOnce(async () => {
  const raw = await writeDailyRaw(tempDir('state-before-raw'), baseRaw(), daysBetween('2026-11-10', '2026-11-14'))
  const snapshots = tempDir('state-before')
  await nights(raw, snapshots, ['2026-11-15', '2026-11-16'])
  return { raw, snapshots }
})

/** Make the state of `snapshotsDir` one written before `raw_days` was kept (the folded raw folders it records). */
const forgetRawDays = (snapshotsDir: string) => alterState(snapshotsDir, 'delete from raw_days')

/** A build that must fail before it publishes, with `message` in its error. */
async function assertRefused(build: () => Promise<unknown>, message: string | RegExp) {
  try {
    await build()
    assert.unreachable('the build must fail')
  } catch (error) {
    assert.match((error as Error).message, message)
  }
}

/** The dates the state has scored. */
function scoredDates(snapshotsDir: string) {
  return queryState(snapshotsDir, 'select score_date::varchar as d from st.score_dates order by 1')
}

const nightly = tempDir('state-nightly')
/** A copy of the nightly folder after its third night. */
const threeNights = (async () => {
  await nights(await daily, nightly, DAYS.slice(0, 3))
  return copyNights(nightly, 'state-three-nights')
})()
/** The marts of the fourth night, read as it is built (later nights prune its folder). */
let fourthNight: Record<string, unknown[]> | undefined
const built = (async () => {
  await threeNights
  fourthNight = await marts((await nights(await daily, nightly, DAYS.slice(3, 4))).dir)
  return nights(await daily, nightly, DAYS.slice(4))
})()

const State = suite('pipeline state')

State('incremental :: thirteen nights equal one fold of the same days from scratch, every mart row for row', async () => {
  const last = await built
  assert.is(last.manifest.state.mode, 'night')
  const full = await buildSnapshot({
    rawDir: await daily, snapshotsDir: tempDir('state-full'), date: DAYS.at(-1)!, rebuild: true, backfillDays: DAYS.length - 1,
  })
  assert.is(full.manifest.state.mode, 'import')
  assertSameMarts(await marts(full.dir), await marts(last.dir))
  const days = await queryState(nightly, 'select day::varchar as day, kind, published from st.days order by day')
  assert.equal(days.map((d) => d.day), DAYS)
  assert.ok(days.every((d) => d.published))
  assert.equal(days.map((d) => d.kind), ['import', ...DAYS.slice(1).map(() => 'night')])
  // the nights read the scores before them from a keyframe written every 7 days (the fold from scratch: its date's)
  const keyframes = (snapshots: string) => queryState(snapshots, 'select distinct score_date::varchar as d from st.score_keyframes order by 1')
  assert.equal((await keyframes(nightly)).map((k) => k.d), [DAYS[0], DAYS[7]])
  assert.equal((await keyframes(path.dirname(full.dir))).map((k) => k.d), [DAYS.at(-1)])
})

State('import :: the single-folder layout of the same days imports to the same snapshot (the one-time backfill)', async () => {
  const last = await built
  const single = await flattenRaw(await daily)
  const imported = await buildSnapshot({ rawDir: single, snapshotsDir: tempDir('state-import'), date: DAYS.at(-1)!, backfillDays: DAYS.length - 1 })
  assert.is(imported.manifest.state.mode, 'import')
  assertSameMarts(await marts(imported.dir), await marts(last.dir))
})

State('rerun :: building a day again from the state of the day before gives the same rows', async () => {
  const last = await built
  const again = await buildSnapshot({ rawDir: await daily, snapshotsDir: nightly, date: DAYS.at(-1)! })
  assert.is.not(again.snapshotId, last.snapshotId)
  assertSameMarts(await marts(again.dir), await marts(last.dir))
  // an earlier day rewinds the state to it
  const earlier = await buildSnapshot({ rawDir: await daily, snapshotsDir: nightly, date: '2026-11-20' })
  assert.is(earlier.manifest.state.mode, 'night')
  const days = await queryState(nightly, 'select max(day)::varchar as last from st.days')
  assert.is(days[0].last, '2026-11-20')
  const forward = await buildSnapshot({ rawDir: await daily, snapshotsDir: nightly, date: DAYS.at(-1)! })
  assert.equal(forward.manifest.state.replayed_days, ['2026-11-21'])
  assertSameMarts(await marts(forward.dir), await marts(last.dir))
})

State('gap :: a missing raw day keeps the state of the accounts it would have scanned; missed days are replayed', async () => {
  const raw = await writeDailyRaw(tempDir('state-gap-raw'), baseRaw(), DAYS.filter((d) => d !== '2026-11-15'))
  const snapshots = tempDir('state-gap')
  await nights(raw, snapshots, ['2026-11-10', '2026-11-12'])
  // 11-13 and 11-14 were not built: the night of 11-16 replays them (11-15 has no folder)
  const night = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-16' })
  assert.equal(night.manifest.state.replayed_days, ['2026-11-13', '2026-11-14'])
  assert.equal(night.warnings, ['no raw day folder for 2026-11-15: built as gaps (the accounts they would have scanned keep their state)'])
  const full = await buildSnapshot({ rawDir: raw, snapshotsDir: tempDir('state-gap-full'), date: '2026-11-16', rebuild: true, backfillDays: 6 })
  const a = await marts(night.dir)
  const b = await marts(full.dir)
  for (const mart of MARTS.filter((m) => !['accounts', 'score_dates', 'score_history', 'trending', 'smart_follows', 'friendship_following'].includes(m))) {
    assert.equal(a[mart], b[mart], mart)
  }
  // account 5's scan of 11-15 (dropping 6) is missing: its state of 11-10 holds, 6 keeps 5 as a smart follower
  const followers = await readParquet(path.join(night.dir, 'smart_followers.parquet'), `select follower_id from t where target_id = ${id(6)}`)
  assert.equal(followers.map((f) => f.follower_id), [id(5)])
})

State('killed :: a build killed after committing its day and before publishing leaves state and current as they were', async () => {
  const raw = await daily
  const snapshots = copyNights(await threeNights, 'state-killed')
  const before = fs.readlinkSync(path.join(snapshots, 'current'))
  const date = DAYS[3]
  // killed the moment the build logs that the state's day is committed, before the folder is renamed and published
  const child = buildKilledAt({ rawDir: raw, snapshotsDir: snapshots, date }, '"step":"commit_state"')
  assert.is(child.signal, 'SIGKILL', child.stderr)
  assert.is(fs.readlinkSync(path.join(snapshots, 'current')), before)
  // the day is in the state file, unpublished; the next build rewinds it and builds it again
  const pending = await queryState(snapshots, `select published from st.days where day = DATE '${date}'`)
  assert.equal(pending, [{ published: false }])
  const rebuilt = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date })
  await built
  assertSameMarts(await marts(rebuilt.dir), fourthNight!)
  assert.equal(fs.readdirSync(snapshots).filter((n) => n.startsWith(date)), [rebuilt.snapshotId])
})

State('sources :: a state written before follow_sources lists the sources its scans hold; the next night is the same', async () => {
  await built
  const snapshots = copyNights(await threeNights, 'state-sources')
  await alterState(snapshots, 'drop table follow_sources')
  const night = await buildSnapshot({ rawDir: await daily, snapshotsDir: snapshots, date: DAYS[3] })
  assertSameMarts(await marts(night.dir), fourthNight!)
  const [{ sources, scanned }] = await queryState(snapshots, `select (select count(*) from st.follow_sources) as sources,
    (select count(distinct source_id) from st.follow_scans) as scanned`)
  assert.ok(Number(sources) > 0 && sources === scanned, `${sources} sources, ${scanned} scanned`)
})

State('lookups :: complete lookup files are folded into the state and deleted; today\'s file is read, kept', async () => {
  const raw = await daily
  const snapshots = tempDir('state-lookups')
  const lookups = tempDir('state-lookups-files')
  const today = new Date().toISOString().slice(0, 10)
  const line = (at: string, k: number) => JSON.stringify({ at, operation: 'get_platform_score', platform_id: id(k) })
  fs.writeFileSync(path.join(lookups, '2026-11-21.ndjson'), [line('2026-11-21T10:00:00Z', 4), line('2026-11-21T11:00:00Z', 4)].join('\n') + '\n')
  fs.writeFileSync(path.join(lookups, `${today}.ndjson`), line(`${today}T00:00:01Z`, 5) + '\n')
  const first = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-22', lookupsDir: lookups })
  assert.equal(fs.readdirSync(lookups), [`${today}.ndjson`])
  const second = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-22', lookupsDir: lookups })
  const top = (dir: string) => readParquet(path.join(dir, 'top_researched.parquet'), 'select days, platform_id, lookups from t order by days, rank')
  assert.equal(await top(second.dir), await top(first.dir))
  assert.equal(await top(first.dir), [{ days: 7, platform_id: id(4), lookups: "2" }, { days: 30, platform_id: id(4), lookups: "2" }])
  assert.equal(await queryState(snapshots, 'select lookups from st.lookup_counts'), [{ lookups: "2" }])
})

State('retention :: pruning raw days keeps the newest folder on or before the date; a later gap day still builds', async () => {
  const raw = await writeDailyRaw(tempDir('state-prune-raw'), baseRaw(), ['2026-11-19', '2026-11-20', '2026-11-21'])
  const snapshots = tempDir('state-prune')
  await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-21', pruneRaw: true })
  assert.equal(fs.readdirSync(raw), ['2026-11-21'])
  // 11-22 and 11-23 were not delivered: both nights read the reference tables of 11-21 and keep the follow state
  await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-22', pruneRaw: true })
  const gap = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-23', pruneRaw: true })
  assert.equal(fs.readdirSync(raw), ['2026-11-21'])
  const rows = await readParquet(path.join(gap.dir, 'smart_followers.parquet'), 'select count(*)::integer as n from t')
  assert.ok((rows[0].n as number) > 0)
})

State('late :: a day folder delivered after its day was built as a gap is folded by the next night, as if on time', async () => {
  const { raw, snapshots } = await lateDelivery('state-late')
  // the state goes back to the end of 11-14: 11-15 to 11-18 are replayed (11-17 as the gap it was) before 11-19
  const night = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-19' })
  assert.is(night.manifest.state.rewound_to, '2026-11-15')
  assert.equal(night.manifest.state.replayed_days, daysBetween('2026-11-15', '2026-11-18'))
  const reference = await onTime()
  assertSameMarts(await marts(night.dir), await marts(reference.last.dir))
  assert.equal(await scoredDates(snapshots), await scoredDates(reference.snapshots))
  const next = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-20' })
  assert.is(next.manifest.state.rewound_to, null)
  assert.equal(next.manifest.state.replayed_days, [])
})

State('late :: a replay stopped half-way by a bad folder goes on once the folder is mended, gap days included', async () => {
  const { raw, snapshots } = await lateDelivery('state-halfway')
  const scans = path.join(raw, '2026-11-16', 'follow_scans.parquet')
  fs.renameSync(scans, `${scans}.away`)
  // 11-15 is replayed and committed before the bad folder of 11-16 stops the build: current stays the gap night's
  await assertRefused(() => buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-19' }), '2026-11-16/follow_scans.parquet')
  fs.renameSync(`${scans}.away`, scans)
  const night = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-19' })
  const reference = await onTime()
  assert.equal(await scoredDates(snapshots), await scoredDates(reference.snapshots))
  // every part, that of 11-15 too, is the on-time one: none is linked from the snapshot built before the replay
  assertSameMarts(await marts(night.dir), await marts(reference.last.dir))
})

State('late :: a late folder kept unfolded is still checked when it gives a night its reference tables', async () => {
  const { raw, snapshots } = await beforeFolders('state-ref-check')
  const rows = baseRaw()
  rows['account_categories.parquet'].push([id(5), 99])
  await writeDailyRaw(raw, rows, ['2026-11-15'])
  await assertRefused(() => buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-17' }), /2026-11-15\/account_categories\.parquet.*unknown category_id 99/)
})

State('rerun :: a rerun of an earlier day, then the nights forward, keeps the scores of the gap days after it', async () => {
  const { raw, untilNight18 } = await onTime()
  const snapshots = copyNights(untilNight18, 'state-rerun-gap')
  await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-14' })
  const night = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-19' })
  assert.equal(night.manifest.state.replayed_days, daysBetween('2026-11-15', '2026-11-18'))
  const reference = await onTime()
  assertSameMarts(await marts(night.dir), await marts(reference.last.dir))
  assert.equal(await scoredDates(snapshots), await scoredDates(reference.snapshots))
})

State('rerun :: a rerun of the first built day (a fold from scratch), then the nights forward, keeps the gap days\' scores', async () => {
  const { raw, untilNight18 } = await onTime()
  const snapshots = copyNights(untilNight18, 'state-rerun-first')
  await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-13' })
  const night = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-19' })
  assert.equal(night.manifest.state.replayed_days, daysBetween('2026-11-14', '2026-11-18'))
  assert.equal(await scoredDates(snapshots), await scoredDates((await onTime()).snapshots))
})

State('killed :: a rerun of a gap day killed after its commit is rewound, then replayed by the next night as a gap', async () => {
  const { raw, untilNight18 } = await onTime()
  const snapshots = copyNights(untilNight18, 'state-killed-gap')
  const child = buildKilledAt({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-17' }, '"step":"commit_state"')
  assert.is(child.signal, 'SIGKILL', child.stderr)
  const night = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-19' })
  assert.equal(night.manifest.state.replayed_days, ['2026-11-17', '2026-11-18'])
  const reference = await onTime()
  assertSameMarts(await marts(night.dir), await marts(reference.last.dir))
  assert.equal(await scoredDates(snapshots), await scoredDates(reference.snapshots))
})

State('late :: a first build dated a day whose folder had not come yet never loses history when the folder comes', async () => {
  const { raw, snapshots } = await beforeFolders('state-first')
  await writeDailyRaw(raw, baseRaw(), ['2026-11-15'])
  const night = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-17' })
  // no built day before 11-15 to rewind to: kept and named, the nights go on
  assert.is(night.manifest.state.mode, 'night')
  assert.equal(night.manifest.state.unfolded_raw_days, ['2026-11-15'])
  assert.ok(night.warnings.includes('late day folders kept, not folded: 2026-11-15 (docs/pipeline.md)'), night.warnings.join('\n'))
  const dates = await queryState(snapshots, 'select score_date::varchar as d from st.score_dates order by 1')
  assert.equal(dates.map((r) => r.d), ['2026-11-15', '2026-11-16', '2026-11-17'])
})

State('late :: a folder older than every built day, under a rerun of that day, is folded by the rerun\'s fold from scratch, not named as kept', async () => {
  const raw = await writeDailyRaw(tempDir('state-late-import-raw'), baseRaw(), ['2026-11-20'])
  const snapshots = tempDir('state-late-import')
  await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-20' })
  await writeDailyRaw(raw, baseRaw(), ['2026-11-19'])
  const rerun = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-20', pruneRaw: true })
  assert.is(rerun.manifest.state.mode, 'import')
  assert.equal(rerun.manifest.state.unfolded_raw_days, [])
  const folded = (await queryState(snapshots, 'select day::varchar as day from st.raw_days order by day')).map((d) => d.day)
  assert.equal(folded, ['2026-11-19', '2026-11-20'])
  assert.equal(fs.readdirSync(raw), ['2026-11-20'])
})

State('late :: retention never deletes a folder the state has not folded; one it cannot fold any more is named, kept', async () => {
  const raw = await writeDailyRaw(tempDir('state-late-prune-raw'), baseRaw(), ['2026-11-19', '2026-11-20', '2026-11-22', '2026-11-23'])
  const snapshots = tempDir('state-late-prune')
  await nights(raw, snapshots, ['2026-11-19', '2026-11-20'])
  const prune = (date: string) => buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date, pruneRaw: true })
  for (const date of ['2026-11-21', '2026-11-22', '2026-11-23']) await prune(date)
  assert.equal(fs.readdirSync(raw), ['2026-11-23'])
  // 11-21 arrives after 11-22, folded since, lost its folder: the state cannot take 11-21 without it
  await writeDailyRaw(raw, baseRaw(), ['2026-11-21'])
  const night = await prune('2026-11-24')
  assert.equal(night.manifest.state.unfolded_raw_days, ['2026-11-21'])
  assert.is(night.manifest.state.rewound_to, null)
  assert.equal(fs.readdirSync(raw), ['2026-11-21', '2026-11-23'])
})

State('late :: a state written before raw_days was kept takes the days it holds and the folders present as folded', async () => {
  const raw = await writeDailyRaw(tempDir('state-seed-raw'), baseRaw(), DAYS.slice(0, 4))
  const snapshots = tempDir('state-seed')
  for (const date of DAYS.slice(0, 3)) await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date, pruneRaw: true })
  assert.equal(fs.readdirSync(raw), DAYS.slice(2, 4))
  await forgetRawDays(snapshots)
  // a pruned day the state holds scans of still counts as folded and gone: a rebuild without it is refused
  await assertRefused(() => buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: DAYS[3], rebuild: true }), `(${DAYS[0]} … `)
  const night = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: DAYS[3], pruneRaw: true })
  assert.is(night.manifest.state.rewound_to, null)
  assert.equal(fs.readdirSync(raw), [DAYS[3]])
  const folded = (await queryState(snapshots, 'select day::varchar as day from st.raw_days order by day')).map((d) => d.day)
  assert.ok(folded.includes(DAYS[0]) && folded.includes(DAYS[2]) && folded.includes(DAYS[3]), folded.join())
})

State('history :: a fold from scratch that would lose history is refused: a deleted state, a rebuild without pruned folders, a single-folder import', async () => {
  const raw = await writeDailyRaw(tempDir('state-loss-raw'), baseRaw(), DAYS.slice(0, 4))
  const snapshots = tempDir('state-loss')
  const prune = (date: string, more = {}) => buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date, pruneRaw: true, ...more })
  await nights(raw, snapshots, DAYS.slice(0, 2))
  const published = await prune(DAYS[2])
  assert.equal(fs.readdirSync(raw), DAYS.slice(2, 4))
  const expectRefused = async (run: () => Promise<unknown>, message: RegExp) => {
    await assertRefused(run, message)
    assert.is(fs.readlinkSync(path.join(snapshots, 'current')), published.snapshotId)
  }
  // --rebuild would keep only the folders present: refused, naming the days that have none
  await expectRefused(() => prune(DAYS[3], { rebuild: true }), new RegExp(`2 day\\(s\\) the state folded have none \\(${DAYS[0]} … ${DAYS[1]}\\)`))
  // a rerun of an earlier day would take back days whose folders are gone: refused the same way
  await expectRefused(() => prune(DAYS[1]), new RegExp(`building ${DAYS[1]} again takes back .* \\(${DAYS[1]} … ${DAYS[1]}\\)`))
  // a state deleted beside published snapshots: refused unless --rebuild says so
  fs.renameSync(path.join(snapshots, 'state'), path.join(snapshots, 'state-moved'))
  await expectRefused(() => prune(DAYS[3]), /the pipeline state holds no day, but .* has published snapshots/)
  fs.rmSync(path.join(snapshots, 'state'), { recursive: true, force: true })
  fs.renameSync(path.join(snapshots, 'state-moved'), path.join(snapshots, 'state'))
  // the single-folder layout (the one-time import) over a state that folded day folders: refused unless --rebuild
  const single = await flattenRaw(raw)
  await expectRefused(
    () => buildSnapshot({ rawDir: single, snapshotsDir: snapshots, date: DAYS[3] }),
    new RegExp(`single-folder layout .* already holds 3 day\\(s\\) folded from day folders \\(${DAYS[0]} … ${DAYS[2]}\\)`),
  )
  // the same for a state written before raw_days was kept: its nights were folded from day folders
  await forgetRawDays(snapshots)
  await expectRefused(
    () => buildSnapshot({ rawDir: single, snapshotsDir: snapshots, date: DAYS[3] }),
    new RegExp(`single-folder layout .* already holds 2 day\\(s\\) folded from day folders \\(${DAYS[1]} … ${DAYS[2]}\\)`),
  )
  // the operator's explicit choice goes ahead
  const rebuilt = await prune(DAYS[3], { rebuild: true, discardMissing: true })
  assert.is(rebuilt.manifest.state.mode, 'import')
})

State('reference :: an account leaving the monitored set, or a followed account leaving the accounts table, keeps nights going', async () => {
  const raw = await writeDailyRaw(tempDir('state-ref-raw'), baseRaw(), daysBetween('2026-11-18', '2026-11-21'))
  const snapshots = tempDir('state-ref')
  const before = await nights(raw, snapshots, daysBetween('2026-11-18', '2026-11-21'))
  const followersOf = async (dir: string, k: number) =>
    (await readParquet(path.join(dir, 'smart_followers.parquet'), `select follower_id from t where target_id = ${id(k)} order by 1`)).map((r) => r.follower_id)
  assert.ok((await followersOf(before.dir, 4)).includes(id(5)), 'Infl (5) follows Proj (4) while monitored')
  // on 11-22 Infl is no longer monitored and NoName (12), followed by VcTwo since 11-20, is gone from accounts
  const rows = baseRaw()
  rows['accounts.parquet'] = rows['accounts.parquet']
    .filter((r) => r[0] !== id(12))
    .map((r) => (r[0] === id(5) ? [...r.slice(0, 9), false, r[10]] : r))
  await writeDailyRaw(raw, rows, ['2026-11-22'])
  const night = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-22' })
  assert.not.ok((await followersOf(night.dir, 4)).includes(id(5)), 'an unmonitored account is no smart follower')
  const gone = await readParquet(path.join(night.dir, 'accounts.parquet'), `select count(*)::integer as n from t where platform_id = ${id(12)}`)
  assert.is(gone[0].n, 0)
  // the runs stay in the state: monitored again, Infl counts again without a new scan
  await writeDailyRaw(raw, baseRaw(), ['2026-11-23'])
  const back = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-23' })
  assert.ok((await followersOf(back.dir, 4)).includes(id(5)))
})

State.run()
