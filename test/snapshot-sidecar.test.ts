/**
 * Serving sidecars (server/snapshot/sidecar.ts): the columns kept on disk read back exactly what the Parquet files
 * hold; the files live next to the snapshot (never inside it), are written once and reused, rewritten when invalid,
 * and cleaned up with their snapshot.
 */
import fs from 'node:fs'
import path from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { loadSnapshot } from '../server/snapshot/load.ts'
import {
  commitSidecar,
  findSidecar,
  readColumns,
  SidecarWriter,
  type DiskColumn,
  type NumericType,
} from '../server/snapshot/sidecar.ts'
import type { Snapshot } from '../server/snapshot/types.ts'
import { SERVING_FILES, tempDir } from './_fixtures.ts'
import { setup, type TestEnv } from './_setup.ts'

/** A private copy of the shared snapshot in its own snapshots folder (files here are changed). */
function copySnapshot(env: TestEnv): { snapshots: string; dir: string; serving: string } {
  const snapshots = tempDir('sidecar-test')
  const dir = path.join(snapshots, path.basename(env.snapshotDir))
  fs.cpSync(env.snapshotDir, dir, { recursive: true })
  return { snapshots, dir, serving: path.join(snapshots, '.serving', path.basename(dir)) }
}

/** The background commit (fsync + rename) of every sidecar a load wrote: only final names left. */
async function committed(serving: string): Promise<void> {
  const done = () => fs.readdirSync(serving).sort().join() === SERVING_FILES.join()
  for (let i = 0; i < 300 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
  assert.equal(fs.readdirSync(serving).sort(), SERVING_FILES)
}

/** Every row of a column left on disk. */
const allRows = (column: DiskColumn<NumericType>) => Array.from(column.read(0, column.rows))

/** Every target's subscription dates in the order `by` (desc), targets one after another: by SQL over the Parquet. */
async function datesByPosition(env: TestEnv, by: 'followers' | 'subscribed_at'): Promise<number[]> {
  const position = by === 'followers' ? 'pos_by_followers' : 'pos_by_subscribed'
  const rows = await env.query<{ ms: number }>(
    `SELECT epoch_ms(subscribed_at)::DOUBLE AS ms FROM smart_followers ORDER BY target_idx, ${position}`,
  )
  return rows.map((r) => r.ms)
}

const values = suite('snapshot sidecars :: values')

values('series, subscription dates and texts read back the Parquet rows in file order, from disk or memory', async () => {
  const env = await setup()
  const { dir, serving } = copySnapshot(env)
  let first: Snapshot | null = null
  // written (read while uncommitted), then reused; read per request, then held in memory
  for (const [round, residentBytes] of [['written', 0], ['reused', 0], ['written, resident', 1 << 30], ['reused, resident', 1 << 30]] as const) {
    if (round === 'written, resident') fs.rmSync(serving, { recursive: true })
    const s = await loadSnapshot(dir, { residentBytes })
    assert.is(s.residentBytes > 0, residentBytes > 0, round)
    if (first) {
      // the arrays read back from the sidecars are those the Parquet files gave
      const { subscribedAtMs: _a, ...smartFollowers } = s.smartFollowers
      const { subscribedAtMs: _b, ...firstSmartFollowers } = first.smartFollowers
      assert.equal(smartFollowers, firstSmartFollowers)
      assert.equal(s.categorizedCounts, first.categorizedCounts)
      assert.equal(s.mentions, first.mentions)
      assert.equal(s.smartMentions, first.smartMentions)
      const { text: _c, ...tweets } = s.tweets
      const { text: _d, ...firstTweets } = first.tweets
      assert.equal(tweets, firstTweets)
      assert.ok(s.mentions.tweetIdx.length > 0 && s.categorizedCounts.cnt.length > 0 && tweets.count > 0)
    }
    first = s
    const fch = await env.query<{ day: number; n: number }>(
      `SELECT (date - DATE '1970-01-01')::INTEGER AS day, followers_count::DOUBLE AS n FROM followers_count_history`,
    )
    assert.ok(fch.length > 0)
    assert.equal(s.followersCountHistory.day.rows, fch.length, round)
    assert.equal(allRows(s.followersCountHistory.day), fch.map((r) => r.day), round)
    assert.equal(allRows(s.followersCountHistory.followersCount), fch.map((r) => r.n), round)

    const scores = await env.query<{ day: number; score: number; rank: number }>(
      `SELECT (date - DATE '1970-01-01')::INTEGER AS day, platform_score AS score, coalesce(rank, 0) AS rank FROM score_history`,
    )
    assert.ok(scores.length > 0)
    assert.equal(allRows(s.scoreHistory.day), scores.map((r) => r.day), round)
    assert.equal(allRows(s.scoreHistory.platformScore), scores.map((r) => r.score), round)
    assert.equal(allRows(s.scoreHistory.rank), scores.map((r) => r.rank), round)

    const subscribed = await env.query<{ ms: number }>(`SELECT epoch_ms(subscribed_at)::DOUBLE AS ms FROM smart_followers`)
    const { subscribedAtMs } = s.smartFollowers
    assert.equal(allRows(subscribedAtMs.score), subscribed.map((r) => r.ms), round)
    // the other orders hold each target's dates at that order's positions
    for (const by of ['followers', 'subscribed_at'] as const) {
      assert.equal(allRows(subscribedAtMs[by]), await datesByPosition(env, by), `${round} by ${by}`)
    }
    // single rows, and scattered rows in any order (far apart: read apart), return the same values
    const scattered: number[] = []
    for (let r = subscribed.length - 1; r >= 0; r -= 37) {
      assert.is(subscribedAtMs.score.read(r, r + 1)[0], subscribed[r].ms)
      scattered.push(r, (r * 7919) % subscribed.length)
    }
    assert.equal(Array.from(subscribedAtMs.score.readRows(scattered)), scattered.map((r) => subscribed[r].ms))
    // near rows (read together), backwards and repeated
    const near = [12, 11, 10, 40, 12, 3]
    assert.equal(Array.from(subscribedAtMs.score.readRows(near)), near.map((r) => subscribed[r].ms))
    assert.equal(Array.from(subscribedAtMs.score.readRows([])), [])
    // no row past the end
    assert.throws(() => subscribedAtMs.score.read(subscribed.length, subscribed.length + 1), RangeError)
    assert.throws(() => subscribedAtMs.score.readRows([0, subscribed.length]), RangeError)

    const texts = await env.query<{ text: string | null }>(`SELECT text FROM tweets`)
    const { tweets } = s
    const read = texts.map((_, t) => tweets.text.at(t))
    assert.equal(read, texts.map((r) => r.text), round)
    await committed(serving)
  }
})

const files = suite('snapshot sidecars :: files')

files('next to the snapshot under .serving/<snapshot>, never inside it; written once and reused', async () => {
  const env = await setup()
  const { dir, serving } = copySnapshot(env)
  const before = fs.readdirSync(dir).sort()
  await loadSnapshot(dir)
  await committed(serving)
  assert.equal(fs.readdirSync(dir).sort(), before)
  assert.equal(fs.readdirSync(serving).sort(), SERVING_FILES)
  const inodes = SERVING_FILES.map((f) => fs.statSync(path.join(serving, f)).ino)
  await loadSnapshot(path.join(dir, '.'))
  assert.equal(SERVING_FILES.map((f) => fs.statSync(path.join(serving, f)).ino), inodes)
  assert.equal(fs.readdirSync(serving).sort(), SERVING_FILES)
})

files('a truncated file or one of another build is written again', async () => {
  const env = await setup()
  const { dir, serving } = copySnapshot(env)
  await loadSnapshot(dir)
  await committed(serving)
  const history = path.join(serving, 'followers_count_history.bin')
  const size = fs.statSync(history).size
  fs.truncateSync(history, size - 8)
  const texts = path.join(serving, 'tweet_texts.bin')
  const textsInode = fs.statSync(texts).ino
  const manifest = path.join(dir, 'manifest.json')
  fs.writeFileSync(manifest, JSON.stringify({ ...JSON.parse(fs.readFileSync(manifest, 'utf8')), built_at: '2000-01-01T00:00:00.000Z' }))

  const s = await loadSnapshot(dir)
  await committed(serving)
  assert.is(fs.statSync(history).size, size)
  assert.is.not(fs.statSync(texts).ino, textsInode)
  const counts = await env.query<{ n: number }>(`SELECT followers_count::DOUBLE AS n FROM followers_count_history`)
  assert.equal(allRows(s.followersCountHistory.followersCount), counts.map((r) => r.n))
})

files('a file of an older loader, without a column this one reads, is written again', async () => {
  const env = await setup()
  const { dir, serving } = copySnapshot(env)
  await loadSnapshot(dir)
  await committed(serving)
  const file = path.join(serving, 'smart_followers.bin')
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'))
  const owner = { snapshotId: manifest.snapshot_id, builtAt: manifest.built_at }
  // smart_followers.bin as written before the dates were stored by position: every other column, same values
  const current = findSidecar(file, owner, [])!
  const kept = Object.entries(current.header.columns).filter(([name]) => !name.startsWith('subscribed_at_ms_by_'))
  assert.is(kept.length, Object.keys(current.header.columns).length - 2)
  const older = new SidecarWriter(file, owner, kept.map(([name, { type, rows }]) => ({ name, type, rows })))
  for (const [name, values] of Object.entries(readColumns(current, kept.map(([name]) => name)))) older.write(name, values, 0)
  await commitSidecar(older.finish())
  assert.ok(findSidecar(file, owner, kept.map(([name]) => name)))
  assert.is(findSidecar(file, owner, ['subscribed_at_ms_by_followers']), null)
  const olderInode = fs.statSync(file).ino

  const s = await loadSnapshot(dir)
  await committed(serving)
  assert.is.not(fs.statSync(file).ino, olderInode)
  assert.ok(findSidecar(file, owner, ['subscribed_at_ms_by_followers', 'subscribed_at_ms_by_subscribed']))
  assert.equal(allRows(s.smartFollowers.subscribedAtMs.followers), await datesByPosition(env, 'followers'))
  assert.equal(allRows(s.smartFollowers.subscribedAtMs.subscribed_at), await datesByPosition(env, 'subscribed_at'))
})

files('folders of snapshots that are gone and temporary files of dead processes are removed', async () => {
  const env = await setup()
  const { snapshots, dir, serving } = copySnapshot(env)
  const gone = path.join(snapshots, '.serving', '2026-01-01_000000-gone')
  fs.mkdirSync(gone, { recursive: true })
  fs.writeFileSync(path.join(gone, 'tweet_texts.bin'), 'x')
  fs.mkdirSync(serving, { recursive: true })
  // pid 2^22 + 1 is above Linux's pid_max: never a running process
  const abandoned = path.join(serving, `score_history.bin.${2 ** 22 + 1}-1.tmp`)
  fs.writeFileSync(abandoned, 'x')
  await loadSnapshot(dir)
  await committed(serving)
  assert.not.ok(fs.existsSync(gone))
  assert.not.ok(fs.existsSync(abandoned))
  assert.equal(fs.readdirSync(path.join(snapshots, '.serving')), [path.basename(dir)])
})

values.run()
files.run()
