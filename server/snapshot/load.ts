/**
 * Load one snapshot folder (docs/snapshot.md) into the serving structures of `types.ts`, all in memory. DuckDB
 * reads the Parquet files once, here, each file on its own connection at the same time (DuckDB decodes one while
 * JS copies another); requests never query it. The server never writes into a snapshot.
 *
 * @example const snapshot = await loadSnapshot('snapshots/current')
 */
import fs from 'node:fs'
import path from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { log } from '../../pipeline/log.ts'
import { copyInto, float64Items, int32Items, readStrings, scan, uint64Items } from './columns.ts'
import {
  countRows,
  loadCategorizedCounts,
  loadFollowersCountHistory,
  loadFriendshipFollowed,
  loadFriendshipFollowing,
  loadLabels,
  loadMentions,
  loadPreviousUsernames,
  loadReferences,
  loadScoreHistory,
  loadSmartFollowers,
  loadSmartFollows,
  loadTags,
  loadTexts,
  loadTopResearched,
  loadTrending,
  loadTweets,
} from './tables.ts'
import type { Accounts, Snapshot } from './types.ts'

interface Manifest {
  snapshot_id: string
  build_date: string
}

export async function loadSnapshot(dir: string): Promise<Snapshot> {
  const started = Date.now()
  const realDir = fs.realpathSync(dir)
  const manifest = JSON.parse(fs.readFileSync(path.join(realDir, 'manifest.json'), 'utf8')) as Manifest
  const file = (name: string) => `read_parquet('${path.join(realDir, name).replaceAll("'", "''")}')`
  const instance = await DuckDBInstance.create(':memory:')
  const running = new Set<Promise<unknown>>()
  /** Runs `load` on a connection of its own. */
  const step = <T>(name: string, load: (conn: DuckDBConnection) => Promise<T>): Promise<T> => {
    const run = (async () => {
      const stepStarted = Date.now()
      const conn = await instance.connect()
      try {
        return await load(conn)
      } finally {
        conn.closeSync()
        log.debug('snapshot.load_step', { step: name, ms: Date.now() - stepStarted })
      }
    })()
    running.add(run)
    run.then(
      () => running.delete(run),
      () => running.delete(run),
    )
    return run
  }
  try {
    const n = await step('accounts.count', (c) => countRows(c, file('accounts.parquet')))
    const accounts = loadAccounts(step, file('accounts.parquet'), n)
    const [
      loadedAccounts,
      byHandle,
      previousUsernames,
      categories,
      tagCategories,
      tags,
      accountCategories,
      accountTags,
      smartFollowers,
      categorizedCounts,
      followersCountHistory,
      friendshipFollowed,
      friendshipFollowing,
      smartFollows,
      tweets,
      mentions,
      scoreHistory,
      trending,
      topResearched,
      smartMentions,
    ] = await Promise.all([
      accounts,
      step('handles', async (c) => handles(c, file('previous_usernames.parquet'), await accounts)),
      step('previousUsernames', (c) => loadPreviousUsernames(c, n, file('previous_usernames.parquet'))),
      step('categories', (c) => loadReferences(c, `SELECT category_id::INTEGER, name FROM ${file('categories.parquet')}`)),
      step('tagCategories', (c) => loadReferences(c, `SELECT tag_category_id::INTEGER, name FROM ${file('tag_categories.parquet')}`)),
      step('tags', (c) => loadTags(c, file('tags.parquet'))),
      step('accountCategories', (c) => loadLabels(c, n, file('account_categories.parquet'), 'category_id')),
      step('accountTags', (c) => loadLabels(c, n, file('account_tags.parquet'), 'tag_id')),
      step('smartFollowers', (c) => loadSmartFollowers(c, n, file('smart_followers.parquet'))),
      step('categorizedCounts', (c) => loadCategorizedCounts(c, n, file('categorized_followers_count.parquet'))),
      step('followersCountHistory', (c) => loadFollowersCountHistory(c, n, file('followers_count_history.parquet'))),
      step('friendshipFollowed', (c) => loadFriendshipFollowed(c, n, file('friendship_followed.parquet'))),
      step('friendshipFollowing', (c) => loadFriendshipFollowing(c, n, file('friendship_following.parquet'))),
      step('smartFollows', (c) => loadSmartFollows(c, file('smart_follows.parquet'))),
      step('tweets', (c) => loadTweets(c, file('tweets.parquet'))),
      step('mentions', (c) => loadMentions(c, n, file('mentions.parquet'))),
      step('scoreHistory', (c) => loadScoreHistory(c, n, file('score_history.parquet'))),
      step('trending', (c) => loadTrending(c, file('trending.parquet'))),
      step('topResearched', (c) => loadTopResearched(c, file('top_researched.parquet'))),
      step('smartMentions', (c) => loadMentions(c, n, file('smart_mentions.parquet'))),
    ])
    const snapshot: Snapshot = {
      id: manifest.snapshot_id,
      date: manifest.build_date,
      dir: realDir,
      loadedAt: new Date(),
      loadMs: Date.now() - started,
      accounts: loadedAccounts,
      byHandle,
      previousUsernames,
      categories,
      categoryById: new Map(categories.map((c) => [c.id, c])),
      tagCategories,
      tags,
      tagById: new Map(tags.map((t) => [t.id, t])),
      accountCategories,
      accountTags,
      smartFollowers,
      categorizedCounts,
      followersCountHistory,
      friendshipFollowed,
      friendshipFollowing,
      smartFollows,
      tweets,
      mentions,
      scoreHistory,
      trending,
      topResearched,
      smartMentions,
    }
    log.info('snapshot.loaded', { snapshot_id: snapshot.id, accounts: n, ms: snapshot.loadMs })
    return snapshot
  } catch (error) {
    // the other steps still use the instance: closing it under them would abort the process
    while (running.size > 0) await Promise.allSettled(running)
    throw error
  } finally {
    instance.closeSync()
  }
}

type Step = <T>(name: string, load: (conn: DuckDBConnection) => Promise<T>) => Promise<T>

/** The string columns, the texts and the numeric ones load concurrently. */
async function loadAccounts(step: Step, source: string, count: number): Promise<Accounts> {
  const [[platformId, username, slug, name], description, profileImage, numbers] = await Promise.all([
    step('accounts.strings', (c) => readStrings(c, source, ['platform_id::VARCHAR', 'username', 'slug', 'name'], 'account_idx', count)),
    step('accounts.description', (c) => loadTexts(c, source, "coalesce(description, '')", 'account_idx', count, false)),
    step('accounts.profileImage', (c) => loadTexts(c, source, 'profile_image', 'account_idx', count, true)),
    step('accounts.numbers', (c) => loadAccountNumbers(c, source, count)),
  ])
  return {
    count,
    platformId: platformId as string[],
    username: username as string[],
    slug,
    name,
    description,
    profileImage,
    ...numbers,
  }
}

type AccountNumbers = Omit<Accounts, 'count' | 'platformId' | 'username' | 'slug' | 'name' | 'description' | 'profileImage'>

async function loadAccountNumbers(conn: DuckDBConnection, source: string, count: number): Promise<AccountNumbers> {
  const a: AccountNumbers = {
    numericId: new BigUint64Array(count),
    blueVerified: new Uint8Array(count),
    isTracked: new Uint8Array(count),
    isMonitored: new Uint8Array(count),
    isSmart: new Uint8Array(count),
    platformScore: new Float64Array(count),
    graphScore: new Float64Array(count),
    followersCount: new Float64Array(count),
    smartFollowersCount: new Int32Array(count),
    rank: new Int32Array(count),
  }
  const flags = [a.blueVerified, a.isTracked, a.isMonitored, a.isSmart]
  await scan(
    conn,
    `SELECT blue_verified::INTEGER, is_tracked::INTEGER, is_monitored::INTEGER, is_smart::INTEGER,
            platform_score::DOUBLE, coalesce(graph_score, 'NaN'::DOUBLE)::DOUBLE, followers_count::DOUBLE,
            smart_followers_count::INTEGER, coalesce(rank, 0)::INTEGER, platform_id::UBIGINT
     FROM ${source}`,
    (chunk, offset) => {
      const rows = chunk.rowCount
      flags.forEach((target, f) => copyInto(target, int32Items(chunk.getColumnVector(f)), rows, offset))
      copyInto(a.platformScore, float64Items(chunk.getColumnVector(4)), rows, offset)
      copyInto(a.graphScore, float64Items(chunk.getColumnVector(5)), rows, offset)
      copyInto(a.followersCount, float64Items(chunk.getColumnVector(6)), rows, offset)
      copyInto(a.smartFollowersCount, int32Items(chunk.getColumnVector(7)), rows, offset)
      copyInto(a.rank, int32Items(chunk.getColumnVector(8)), rows, offset)
      copyInto(a.numericId, uint64Items(chunk.getColumnVector(9)), rows, offset)
    },
  )
  for (let i = 1; i < count; i++) {
    if (a.numericId[i - 1] >= a.numericId[i]) throw new Error('accounts.parquet is not sorted by platform_id')
  }
  return a
}

/**
 * Lower-case handle → account_idx: a current username, else a slug, else a previous username (the most recent owner
 * of that handle); a tracked account wins a username or slug shared with a friend-only record.
 */
async function handles(conn: DuckDBConnection, previousSource: string, a: Accounts): Promise<Map<string, number>> {
  const byUsername = new Map<string, number>()
  const bySlug = new Map<string, number>()
  const claim = (map: Map<string, number>, key: string, idx: number) => {
    const holder = map.get(key)
    if (holder === undefined || (!a.isTracked[holder] && a.isTracked[idx])) map.set(key, idx)
  }
  for (let i = 0; i < a.count; i++) {
    claim(byUsername, a.username[i].toLowerCase(), i)
    const slug = a.slug[i]?.toLowerCase()
    if (slug) claim(bySlug, slug, i)
  }
  const byHandle = new Map<string, number>()
  const changedOn = new Map<string, number>()
  await scan(conn, `SELECT account_idx, lower(username), (changed_at - DATE '1970-01-01')::INTEGER FROM ${previousSource}`, (chunk) => {
    const idx = int32Items(chunk.getColumnVector(0))
    const handle = chunk.getColumnVector(1)
    const day = int32Items(chunk.getColumnVector(2))
    for (let i = 0; i < chunk.rowCount; i++) {
      const key = handle.getItem(i) as string
      if ((changedOn.get(key) ?? -Infinity) <= day[i]) {
        changedOn.set(key, day[i])
        byHandle.set(key, idx[i])
      }
    }
  })
  // slugs over previous usernames, current usernames over both
  for (const [key, idx] of bySlug) byHandle.set(key, idx)
  for (const [key, idx] of byUsername) byHandle.set(key, idx)
  return byHandle
}
