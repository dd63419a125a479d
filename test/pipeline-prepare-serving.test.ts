/**
 * Serving caches prepared by the build (`buildSnapshot({ prepareServing })`): the new snapshot's sidecars are
 * committed under their final names before `current` points to it, the server's next load of it writes none, and a
 * failed preparation publishes nothing (the last good snapshot stays current).
 */
import fs from 'node:fs'
import path from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { buildSnapshot } from '../pipeline/build.ts'
import { loadSnapshot, prepareServing } from '../server/snapshot/load.ts'
import { BUILD_DATE, SERVING_FILES, baseRaw, tempDir, writeRaw } from './_fixtures.ts'

const rawDir = writeRaw(tempDir('prepare-raw'), baseRaw())

const current = (snapshots: string) => fs.readlinkSync(path.join(snapshots, 'current'))
const serving = (snapshots: string, id: string) => path.join(snapshots, '.serving', id)

/** Name → inode and modification time of every file in a folder. */
function identities(dir: string): Record<string, string> {
  return Object.fromEntries(
    fs.readdirSync(dir).map((name) => {
      const stat = fs.statSync(path.join(dir, name), { bigint: true })
      return [name, `${stat.ino}:${stat.mtimeNs}`]
    }),
  )
}

const Prepare = suite('build prepare_serving')

Prepare('prepare_serving :: sidecars are committed under their final names before current points to the snapshot', async () => {
  const snapshots = tempDir('prepare-snapshots')
  const first = await buildSnapshot({ rawDir: await rawDir, snapshotsDir: snapshots, date: BUILD_DATE })
  let seen: { current: string; files: string[]; written: number } | null = null
  const second = await buildSnapshot({
    rawDir: await rawDir,
    snapshotsDir: snapshots,
    date: BUILD_DATE,
    prepareServing: async (dir) => {
      const { written } = await prepareServing(dir)
      seen = { current: current(snapshots), files: fs.readdirSync(serving(snapshots, path.basename(dir))).sort(), written }
    },
  })
  assert.equal(seen, { current: first.snapshotId, files: SERVING_FILES, written: SERVING_FILES.length })
  assert.is(current(snapshots), second.snapshotId)
  // the snapshot being served while the new one was prepared kept its folder
  assert.ok(fs.existsSync(path.join(snapshots, first.snapshotId, 'manifest.json')))
})

Prepare('prepare_serving :: the next load of the published snapshot writes no sidecar', async () => {
  const snapshots = tempDir('prepare-reuse')
  const { snapshotId } = await buildSnapshot({ rawDir: await rawDir, snapshotsDir: snapshots, date: BUILD_DATE, prepareServing })
  const before = identities(serving(snapshots, snapshotId))
  assert.equal(Object.keys(before).sort(), SERVING_FILES)
  const snapshot = await loadSnapshot(path.join(snapshots, 'current'))
  assert.is(snapshot.id, snapshotId)
  // a load that wrote a sidecar would have left a temporary file (until its commit) or a new inode (after it)
  assert.equal(identities(serving(snapshots, snapshotId)), before)
  assert.equal((await prepareServing(path.join(snapshots, 'current'))).written, 0)
  assert.equal(identities(serving(snapshots, snapshotId)), before)
})

Prepare('prepare_serving :: a snapshot that fails to prepare is not published; current keeps the last good one', async () => {
  const snapshots = tempDir('prepare-failed')
  const good = await buildSnapshot({ rawDir: await rawDir, snapshotsDir: snapshots, date: BUILD_DATE, prepareServing })
  let failedId = ''
  try {
    await buildSnapshot({
      rawDir: await rawDir,
      snapshotsDir: snapshots,
      date: BUILD_DATE,
      // a real load failure: the server cannot read this folder
      prepareServing: (dir) => {
        failedId = path.basename(dir)
        fs.rmSync(path.join(dir, 'tweets.parquet'))
        return prepareServing(dir)
      },
    })
    assert.unreachable('the build should fail')
  } catch (error) {
    assert.instance(error, Error)
    assert.match((error as Error).message, /^prepare_serving failed: .*tweets\.parquet/s)
  }
  assert.ok(failedId)
  assert.is(current(snapshots), good.snapshotId)
  assert.not.ok(fs.existsSync(path.join(snapshots, failedId)), 'the unpublished folder is removed')
  assert.equal(Object.keys(identities(serving(snapshots, good.snapshotId))).sort(), SERVING_FILES)

  // the next build publishes; preparing it drops what the failed one left in .serving
  const next = await buildSnapshot({ rawDir: await rawDir, snapshotsDir: snapshots, date: BUILD_DATE, prepareServing })
  assert.is(current(snapshots), next.snapshotId)
  assert.equal(fs.readdirSync(path.join(snapshots, '.serving')).sort(), [good.snapshotId, next.snapshotId].sort())
})

Prepare.run()
