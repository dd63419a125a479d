/**
 * Replays committed by a build that then stopped (docs/pipeline.md, "Commit with the snapshot, and what a failure
 * leaves"): the snapshot a later build publishes equals the one the nights would have built on time, every mart and
 * every history part row for row, on generated data (every day's folder differs, so a part kept from before the
 * replays shows).
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import fs from 'node:fs'
import path from 'node:path'
import { buildSnapshot } from '../pipeline/build.ts'
import { generateRaw } from '../scripts/generate/index.ts'
import { daysBetween, tempDir } from './_fixtures.ts'
import { buildKilledAt } from './_killed-build.ts'
import { assertSameMarts, copyNights, marts, nights, queryState } from './_state.ts'

const LATE = '2026-11-16'
const BROKEN = '2026-11-18'

/** Eight generated days, 11-13 to 11-20, and the nights 11-13 to 11-19 built on time from them. */
const onTime = (async () => {
  const raw = tempDir('replay-stopped-raw')
  await generateRaw({ scale: 'tiny', seed: 42, outDir: raw, endDate: '2026-11-20', days: 8 })
  const snapshots = tempDir('replay-stopped-on-time')
  const last = await nights(raw, snapshots, daysBetween('2026-11-13', '2026-11-19'))
  return { raw, snapshots, last }
})()

/** A copy of the raw days and the nights 11-13 to 11-18 built without the folder of LATE, which then comes. */
async function lateDelivery(name: string) {
  const reference = await onTime
  const raw = copyNights(reference.raw, `${name}-raw`)
  const snapshots = tempDir(name)
  const away = `${raw}-${LATE}`
  fs.renameSync(path.join(raw, LATE), away)
  await nights(raw, snapshots, daysBetween('2026-11-13', BROKEN))
  fs.renameSync(away, path.join(raw, LATE))
  return { reference, raw, snapshots }
}

const Stopped = suite('replays of a stopped build')

Stopped('late folder :: replays committed before a bad folder stopped the build are in the next snapshot, as on time', async () => {
  const { reference, raw, snapshots } = await lateDelivery('replay-stopped-late')
  // the folder of 11-18, which the replay after the late folder checks again, is broken meanwhile
  const tweets = path.join(raw, BROKEN, 'tweets.parquet')
  fs.renameSync(tweets, `${tweets}.away`)
  fs.writeFileSync(tweets, 'not parquet')
  try {
    await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-19' })
    assert.unreachable('the build must stop on the broken folder')
  } catch (error) {
    assert.match((error as Error).message, `${BROKEN}/tweets.parquet`)
  }
  const replayed = await queryState(snapshots, `select day::varchar as day from st.days where kind = 'replay' order by 1`)
  assert.equal(replayed.map((r) => r.day), ['2026-11-16', '2026-11-17'], 'the replays before the broken folder are committed')
  fs.renameSync(`${tweets}.away`, tweets)
  const night = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-19' })
  assert.equal(night.manifest.state.replayed_days, [BROKEN])
  assertSameMarts(await marts(night.dir), await marts(reference.last.dir))
})

Stopped('late folder :: a build killed after its first replay leaves the next one to publish the snapshot of the nights on time', async () => {
  const { reference, raw, snapshots } = await lateDelivery('replay-stopped-killed')
  const killed = buildKilledAt({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-19' }, '"event":"build.replayed"')
  assert.is(killed.signal, 'SIGKILL', killed.stderr.slice(-2000))
  const night = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date: '2026-11-19' })
  assert.equal(night.manifest.state.replayed_days, ['2026-11-17', BROKEN])
  assertSameMarts(await marts(night.dir), await marts(reference.last.dir))
  // once published, those replays are what current shows: the next night links their parts again
  const unpublished = await queryState(snapshots, `select count(*)::integer as n from st.days where not published`)
  assert.equal(unpublished, [{ n: 0 }])
})

Stopped.run()
