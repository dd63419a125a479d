/**
 * Build robustness under the faults a night meets: what a killed build leaves behind is removed by the next one
 * and never counts as a published snapshot; bad rows of a day folder (negative counters, rows dated after the
 * folder's day) fail the build naming the raw file, row and reason while `current` keeps serving; an oversized
 * tweet text is cut for display; a full disk fails a write naming the file.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import fs from 'node:fs'
import path from 'node:path'
import { buildSnapshot } from '../pipeline/build.ts'
import { writeFileNamed } from '../pipeline/file-write.ts'
import { RawInputError } from '../pipeline/validate-raw.ts'
import { loadSnapshot } from '../server/snapshot/load.ts'
import { BUILD_DATE, baseRaw, id, readParquet, readSnapshot, tempDir, writeDailyRaw, type RawRows } from './_fixtures.ts'

const DAY = BUILD_DATE
const raw = (change: (rows: RawRows) => void = () => {}) => {
  const rows = baseRaw()
  change(rows)
  return writeDailyRaw(tempDir('faults-raw'), rows, ['2026-11-21', DAY])
}

const Faults = suite('build faults')

Faults('killed in write_parquet :: the next build removes the .tmp-* folder it left', async () => {
  const snapshots = tempDir('faults-tmp')
  const left = path.join(snapshots, `.tmp-${DAY}_000000-dead00`)
  fs.mkdirSync(left, { recursive: true })
  fs.writeFileSync(path.join(left, 'accounts.parquet'), 'half a file')
  await buildSnapshot({ rawDir: await raw(), snapshotsDir: snapshots, date: DAY })
  assert.not.ok(fs.existsSync(left))
})

Faults('spills :: a build spills on the snapshots\' disk, not into the OS temp folder, and leaves nothing there', async () => {
  const snapshots = tempDir('faults-spill')
  const rawDir = await raw()
  const osTemp = tempDir('faults-os-temp')
  const saved = process.env.TMPDIR
  const seen = new Set<string>()
  const watch = setInterval(() => {
    for (const name of fs.readdirSync(snapshots)) if (name.startsWith('.tmp-spill-')) seen.add(name)
  }, 5)
  process.env.TMPDIR = osTemp
  try {
    await buildSnapshot({ rawDir, snapshotsDir: snapshots, date: DAY })
  } finally {
    clearInterval(watch)
    if (saved === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = saved
  }
  assert.equal(fs.readdirSync(osTemp), [])
  assert.is(seen.size, 1)
  assert.not.ok(fs.readdirSync(snapshots).some((name) => name.startsWith('.tmp-')))
})

Faults('first night :: a snapshot with no follow events and no tweets yet loads: every serving column exists, empty', async () => {
  const rows = baseRaw()
  rows['tweets.parquet'] = []
  const rawDir = await writeDailyRaw(tempDir('faults-first-raw'), rows, [DAY])
  const built = await buildSnapshot({ rawDir, snapshotsDir: tempDir('faults-first'), date: DAY })
  assert.equal(await readParquet(path.join(built.dir, 'friendship_followed.parquet'), 'select count(*)::integer as n from t'), [{ n: 0 }])
  assert.equal(await readSnapshot(built.dir, 'tweets', 'select count(*)::integer as n from t'), [{ n: 0 }])
  const snapshot = await loadSnapshot(built.dir)
  assert.ok(snapshot.accounts.count > 0)
  assert.is(snapshot.tweets.text.length, 0)
})

Faults('disk :: a serving column write that takes fewer bytes is completed; one that fails names its file', async () => {
  const snapshots = tempDir('faults-disk')
  const rawDir = await raw()
  const write = fs.writeSync
  // writes into the snapshot's serving columns (the file behind the descriptor, as Linux shows it)
  const intoFile = (fd: number, buffer: unknown) => buffer instanceof Uint8Array && /\/serving\/[^/]+\.bin$/.test(fs.readlinkSync(`/proc/self/fd/${fd}`))
  const replace = (writeSync: (fd: number, buffer: Uint8Array, offset?: number) => number) => {
    ;(fs as { writeSync: unknown }).writeSync = (fd: number, buffer: Uint8Array, offset = 0, ...rest: unknown[]) =>
      intoFile(fd, buffer) ? writeSync(fd, buffer, offset) : (write as (...args: unknown[]) => number)(fd, buffer, offset, ...rest)
  }
  // every write into a column takes at most half of what it is given
  let short = 0
  replace((fd, buffer, offset = 0) => {
    const length = buffer.byteLength - offset
    if (length > 1) short++
    return write(fd, buffer, offset, Math.ceil(length / 2))
  })
  let built
  try {
    built = await buildSnapshot({ rawDir, snapshotsDir: snapshots, date: DAY })
  } finally {
    fs.writeSync = write
  }
  assert.ok(short > 0)
  const snapshot = await loadSnapshot(built.dir)
  assert.is(snapshot.accounts.count, (await readParquet(path.join(built.dir, 'accounts.parquet'))).length)

  // a disk that fills up while the columns are written fails the build naming the file, and current stays
  replace(() => {
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
  })
  try {
    await buildSnapshot({ rawDir, snapshotsDir: snapshots, date: DAY })
    assert.unreachable('the build should fail')
  } catch (error) {
    assert.match(String(error), /writing .*\.tmp-.*serving.*\.bin: ENOSPC/)
  } finally {
    fs.writeSync = write
  }
  assert.is(fs.readlinkSync(path.join(snapshots, 'current')), built.snapshotId)
})

Faults('a full disk :: a small file (manifest, lock, build status, marker) fails its write naming the file', () => {
  // /dev/full answers every write with ENOSPC, as a disk that filled up
  try {
    writeFileNamed('/dev/full', JSON.stringify({ outcome: 'published' }))
    assert.unreachable('a write to a full disk must fail')
  } catch (error) {
    assert.match(String(error), /^Error: writing \/dev\/full: ENOSPC/)
    assert.is((error as NodeJS.ErrnoException).code, 'ENOSPC')
  }
})

Faults('killed before publishing :: complete-looking unpublished folders are removed and never count toward keep', async () => {
  const snapshots = tempDir('faults-keep')
  const rawDir = await raw()
  const first = await buildSnapshot({ rawDir, snapshotsDir: snapshots, date: '2026-11-21', keep: 2 })
  // what builds killed before `current` moved leave: whole folders with a manifest built later than current
  const ghosts = ['2026-11-22_235900-aaaaaa', '2026-11-22_235901-bbbbbb']
  for (const ghost of ghosts) {
    fs.cpSync(first.dir, path.join(snapshots, ghost), { recursive: true })
    const manifest = JSON.parse(fs.readFileSync(path.join(snapshots, ghost, 'manifest.json'), 'utf8'))
    fs.writeFileSync(path.join(snapshots, ghost, 'manifest.json'), JSON.stringify({ ...manifest, built_at: '2099-01-01T00:00:00.000Z' }))
  }
  const second = await buildSnapshot({ rawDir, snapshotsDir: snapshots, date: DAY, keep: 2 })
  const folders = fs.readdirSync(snapshots).filter((n) => /^\d{4}-/.test(n)).sort()
  assert.equal(folders, [first.snapshotId, second.snapshotId].sort())
})

async function expectRejected(rawDir: string, expected: { file: string; row: number; reason: RegExp }) {
  const snapshots = tempDir('faults-rejected')
  const good = await buildSnapshot({ rawDir: await raw(), snapshotsDir: snapshots, date: '2026-11-21' })
  try {
    await buildSnapshot({ rawDir, snapshotsDir: snapshots, date: DAY })
    assert.unreachable('build should fail')
  } catch (error) {
    if (!(error instanceof RawInputError)) throw error
    assert.is(error.file, expected.file)
    assert.is(error.row, expected.row)
    assert.match(error.reason, expected.reason)
  }
  assert.is(fs.readlinkSync(path.join(snapshots, 'current')), good.snapshotId)
}

Faults('bad rows :: a negative follower count names the file, row and value', async () => {
  const rawDir = await raw((rows) => rows['follower_counts.parquet'].push([DAY, id(5), -3]))
  await expectRejected(rawDir, { file: `${DAY}/follower_counts.parquet`, row: 3, reason: /negative followers_count \(got -3\)/ })
})

Faults('bad rows :: a negative engagement counter of a tweet', async () => {
  const rawDir = await raw((rows) => {
    rows['tweets.parquet'].push([id(505), id(4), `${DAY}T09:00:00+00:00`, 'gm', [], 1, -2, 0, 7, [id(7)]])
  })
  await expectRejected(rawDir, { file: `${DAY}/tweets.parquet`, row: 2, reason: /negative retweets \(got -2\)/ })
})

Faults('bad rows :: a scan dated after its folder\'s day, and a scan whose scanned_at is not its scan_date', async () => {
  const later = await raw((rows) => rows['follow_scans.parquet'].push([DAY, '2026-11-23 02:00:00', id(9), [id(7)]]))
  await expectRejected(later, { file: `${DAY}/follow_scans.parquet`, row: 3, reason: /scanned_at 2026-11-23 02:00:00 is not on scan_date 2026-11-22/ })
  // a day folder holding another day's scan
  const other = await raw((rows) => rows['follow_scans.parquet'].push(['2026-11-23', '2026-11-23 02:00:00', id(9), [id(7)]]))
  const { writeRaw } = await import('./_fixtures.ts')
  await writeRaw(path.join(other, DAY), { 'follow_scans.parquet': [['2026-11-23', '2026-11-23 02:00:00', id(9), [id(7)]]] })
  await expectRejected(other, { file: `${DAY}/follow_scans.parquet`, row: 1, reason: /scan_date 2026-11-23 in the folder of 2026-11-22/ })
})

Faults('bad rows :: a tweet created after the end of its folder\'s day', async () => {
  const rawDir = await raw()
  // the fixture's tweet of 11-23 01:00 UTC, delivered in the folder of 11-22
  const rows = baseRaw()
  rows['tweets.parquet'] = rows['tweets.parquet'].filter((t) => t[0] === id(504))
  const { writeRaw } = await import('./_fixtures.ts')
  await writeRaw(path.join(rawDir, DAY), { 'tweets.parquet': rows['tweets.parquet'] })
  await expectRejected(rawDir, { file: `${DAY}/tweets.parquet`, row: 1, reason: /created_at 2026-11-23T01:00:00\+00:00 is after the day of its folder/ })
})

Faults('oversized text :: a 1 MB tweet text is cut to 4,000 characters for display', async () => {
  const big = `gm ${'x'.repeat(1_000_000)}`
  const rawDir = await raw((rows) => rows['tweets.parquet'].push([id(506), id(4), `${DAY}T09:00:00+00:00`, big, [], 1, 0, 0, 7, [id(7)]]))
  const { dir } = await buildSnapshot({ rawDir, snapshotsDir: tempDir('faults-text'), date: DAY })
  const [tweet] = await readSnapshot(dir, 'tweets', `select length(text)::integer as n, text from t where tweet_id = ${id(506)}`)
  assert.is(tweet.n, 4000)
  assert.ok((tweet.text as string).startsWith('gm xxx') && (tweet.text as string).endsWith('…'))
})

Faults.run()
