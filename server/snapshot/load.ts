/**
 * Load one snapshot folder (docs/snapshot.md) into the serving structures of `types.ts`. DuckDB reads the Parquet
 * files once, here; requests never query it. `prepareServing` runs the same load ahead of publication (the nightly
 * build) so the server's first load of a new snapshot reads committed sidecars instead of converting Parquet.
 *
 * @example const snapshot = await loadSnapshot('snapshots/current')
 * @example await prepareServing('snapshots/2026-11-22_010203-abcdef') // before `current` points to it
 */
import fs from 'node:fs'
import path from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { log } from '../../pipeline/log.ts'
import { HandleIndex } from '../internal/handle_index.ts'
import { IdIndex } from '../internal/id_index.ts'
import { runWorker } from '../internal/worker.ts'
import type { BlockCache } from './block_cache.ts'
import { OffsetsBuilder, copyInto, float64Items, int32Items, numberItems, readStrings, readUtf8, scan, uint64Items } from './columns.ts'
import {
  commitSidecar,
  findSidecar,
  newColumn,
  openSidecar,
  readColumns,
  servingDir,
  SidecarWriter,
  TextColumn,
  type AnyArray,
  type Sidecar,
  type ColumnType,
  type NumericType,
  type SidecarOwner,
  type SidecarRef,
} from './sidecar.ts'
import type {
  AccountLabels,
  Accounts,
  CategorizedCounts,
  FollowersCountHistory,
  FriendshipFollowed,
  FriendshipFollowing,
  Mentions,
  PreviousUsernames,
  Reference,
  ScoreHistory,
  SmartFollowers,
  SmartFollowsItem,
  SmartFollowsList,
  Snapshot,
  Tag,
  TopResearchedList,
  TrendingList,
  Tweets,
} from './types.ts'

interface Manifest {
  snapshot_id: string
  build_date: string
  built_at: string
}

/** What the loader worker needs: the snapshot folder, where its sidecars go and whom they belong to. */
export interface WorkerInput {
  dir: string
  sidecars: string
  owner: SidecarOwner
  /** which tables this worker loads */
  part: 'graph' | 'series'
}

/** Where one thread's loaders find and write sidecars; `written` lists the new ones (committed by the main thread). */
interface Sidecars {
  dir: string
  owner: SidecarOwner
  written: Written[]
}

/** A sidecar written by this load and the in-memory columns still to be written into it (when it is committed). */
interface Written {
  ref: SidecarRef
  pending: Record<string, AnyArray>
}

/** A snapshot in serving structures, and the sidecars its load wrote, still to be committed (`commitSidecar`). */
interface Loaded {
  snapshot: Snapshot
  written: Written[]
}

/** Opens the sidecars of one load (`openSidecar`), adding up what it holds in memory. */
class SidecarOpener {
  resident = 0
  constructor(
    private readonly residentBytes: number,
    private readonly blockCache: BlockCache | null,
  ) {}

  open(ref: SidecarRef): Sidecar {
    const sidecar = openSidecar(ref, this.residentBytes, this.blockCache)
    this.resident += sidecar.residentBytes
    return sidecar
  }
}

/** How a snapshot loads for serving. */
export interface LoadOptions {
  /** Serving-cache files of at most this many bytes are read into memory (see `openSidecar`); default 0, none. */
  residentBytes?: number
  /** Where the blocks read from the other serving-cache files are kept (shared by every load); default none. */
  blockCache?: BlockCache | null
}

export async function loadSnapshot(dir: string, options: LoadOptions = {}): Promise<Snapshot> {
  const { snapshot, written } = await load(dir, options)
  // after the snapshot is ready: the in-memory columns of new sidecars are written then, off the load's path (a
  // failed commit is logged by commitSidecar; the next load writes that sidecar again)
  for (const { ref, pending } of written) commitSidecar(ref, pending).catch(() => undefined)
  log.info('snapshot.loaded', {
    snapshot_id: snapshot.id,
    accounts: snapshot.accounts.count,
    ms: snapshot.loadMs,
    sidecars_written: written.length,
    resident_bytes: snapshot.residentBytes,
  })
  return snapshot
}

/**
 * Load a snapshot folder as `loadSnapshot` does, commit every sidecar it writes (fsynced, renamed to its final
 * name, the folder fsynced) and let the arrays go: the next load of this folder reads sidecars only. `written` =
 * sidecars written now (0 when they were all there already). Rejects when the load or a commit fails.
 */
export async function prepareServing(snapshotDir: string): Promise<{ ms: number; written: number }> {
  const started = Date.now()
  const { snapshot, written } = await load(snapshotDir)
  const commits = await Promise.allSettled(written.map(({ ref, pending }) => commitSidecar(ref, pending)))
  const failed = commits.find((c) => c.status === 'rejected')
  if (failed) throw (failed as PromiseRejectedResult).reason
  for (const folder of new Set(written.map(({ ref }) => path.dirname(ref.finalPath)))) syncFolder(folder)
  const ms = Date.now() - started
  log.info('snapshot.prepared', { snapshot_id: snapshot.id, sidecars_written: written.length, ms })
  return { ms, written: written.length }
}

/** Make the renames in a folder durable. */
function syncFolder(dir: string): void {
  const fd = fs.openSync(dir, 'r')
  try {
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}

async function load(dir: string, { residentBytes = 0, blockCache = null }: LoadOptions = {}): Promise<Loaded> {
  const started = Date.now()
  const realDir = fs.realpathSync(dir)
  const manifest = JSON.parse(fs.readFileSync(path.join(realDir, 'manifest.json'), 'utf8')) as Manifest
  const input = {
    dir: realDir,
    sidecars: servingDir(realDir),
    owner: { snapshotId: manifest.snapshot_id, builtAt: manifest.built_at },
  }
  // the biggest files load in two worker threads (each its own DuckDB), the rest here, all at the same time:
  // one JS thread cannot copy ~150M values out of DuckDB fast enough on its own
  const worker = <T>(part: WorkerInput['part']) => {
    const loading = runWorker<T>(new URL('./load-worker.ts', import.meta.url), { ...input, part })
    loading.catch(() => undefined) // awaited below; if this thread fails first, its own error is the one reported
    return loading
  }
  const graph = worker<GraphTables>('graph')
  const series = worker<SeriesTables>('series')
  const instance = await DuckDBInstance.create(':memory:')
  const { step, settled } = stepRunner(instance)
  const sidecars: Sidecars = { dir: input.sidecars, owner: input.owner, written: [] }
  const opener = new SidecarOpener(residentBytes, blockCache)
  try {
    const file = (name: string) => `read_parquet('${path.join(realDir, name).replaceAll("'", "''")}')`
    const n = await step('accounts.count', (c) => countRows(c, file('accounts.parquet')))
    // every other file needs only the account count: they load while the accounts' strings are decoded
    const loadingAccounts = loadAccounts(step, file('accounts.parquet'), n, sidecars, opener)
    const [
      accounts,
      lookups,
      previousUsernames,
      categories,
      tagCategories,
      tags,
      accountCategories,
      accountTags,
      friendshipFollowed,
      friendshipFollowing,
      smartFollows,
      scoreHistory,
      trending,
      topResearched,
      smartMentions,
      { smartFollowers, categorizedCounts, mentions, written: graphWritten },
      { followersCountHistory, tweets, written: seriesWritten },
    ] = await Promise.all([
      loadingAccounts,
      step('lookups', async (c) => usernameLookups(c, file('previous_usernames.parquet'), await loadingAccounts)),
      step('previousUsernames', (c) => loadPreviousUsernames(c, n, file('previous_usernames.parquet'))),
      step('categories', (c) => loadReferences(c, `SELECT category_id::INTEGER, name FROM ${file('categories.parquet')}`)),
      step('tagCategories', (c) =>
        loadReferences(c, `SELECT tag_category_id::INTEGER, name FROM ${file('tag_categories.parquet')}`),
      ),
      step('tags', (c) => loadTags(c, file('tags.parquet'))),
      step('accountCategories', (c) => loadLabels(c, n, file('account_categories.parquet'), 'category_id')),
      step('accountTags', (c) => loadLabels(c, n, file('account_tags.parquet'), 'tag_id')),
      step('friendshipFollowed', (c) => loadFriendshipFollowed(c, n, file('friendship_followed.parquet'))),
      step('friendshipFollowing', (c) => loadFriendshipFollowing(c, n, file('friendship_following.parquet'))),
      step('smartFollows', (c) => loadSmartFollows(c, file('smart_follows.parquet'))),
      step('scoreHistory', (c) => writeSeries(c, n, file('score_history.parquet'), sidecars, SCORE_HISTORY)),
      step('trending', (c) => loadTrending(c, file('trending.parquet'))),
      step('topResearched', (c) => loadTopResearched(c, file('top_researched.parquet'))),
      step('smartMentions', async (c) => (await loadCsr(c, n, file('smart_mentions.parquet'), sidecars, mentionsSpec('smart_mentions.bin'))) as unknown as Mentions),
      graph,
      series,
    ])
    const snapshot: Snapshot = {
      id: manifest.snapshot_id,
      date: manifest.build_date,
      dir: realDir,
      loadedAt: new Date(),
      loadMs: Date.now() - started,
      accounts,
      ...lookups,
      previousUsernames,
      categories,
      categoryById: new Map(categories.map((c) => [c.id, c])),
      tagCategories,
      tags,
      tagById: new Map(tags.map((t) => [t.id, t])),
      accountCategories,
      accountTags,
      smartFollowers: openSmartFollowers(smartFollowers, opener),
      categorizedCounts,
      followersCountHistory: openFollowersCountHistory(opener.open(followersCountHistory)),
      friendshipFollowed,
      friendshipFollowing,
      smartFollows,
      tweets: openTweets(tweets, opener),
      mentions,
      scoreHistory: openScoreHistory(opener.open(scoreHistory)),
      trending,
      topResearched,
      smartMentions,
      // last: the sidecars above are open by now
      residentBytes: opener.resident,
    }
    return { snapshot, written: [...sidecars.written, ...graphWritten, ...seriesWritten] }
  } catch (error) {
    await settled()
    abandon(sidecars.written)
    for (const part of [graph, series]) part.then(({ written }) => abandon(written), () => undefined)
    throw error
  } finally {
    instance.closeSync()
  }
}

/** A failed load removes the sidecars it wrote (never committed). */
function abandon(written: Written[]): void {
  for (const { ref } of written) fs.rmSync(ref.path, { force: true })
}

type Step = <T>(name: string, load: (conn: DuckDBConnection) => Promise<T>) => Promise<T>

/**
 * Independent files load concurrently, each on its own connection: DuckDB decodes one while JS copies another.
 * `settled()` waits for every step still running: when one fails, the others still use the instance (closing it
 * under them aborts the process) and may still write sidecars.
 */
function stepRunner(instance: DuckDBInstance): { step: Step; settled(): Promise<void> } {
  const running = new Set<Promise<unknown>>()
  const step: Step = (name, load) => {
    const run = (async () => {
      const started = Date.now()
      const conn = await instance.connect()
      try {
        return await load(conn)
      } finally {
        conn.closeSync()
        log.debug('snapshot.load_step', { step: name, ms: Date.now() - started })
      }
    })()
    running.add(run)
    const done = () => void running.delete(run)
    run.then(done, done)
    return run
  }
  const settled = async () => {
    while (running.size > 0) await Promise.allSettled(running)
  }
  return { step, settled }
}

/** The smart-follower graph and the mentions, loaded by one worker thread. */
export interface GraphTables {
  smartFollowers: LoadedSmartFollowers
  categorizedCounts: CategorizedCounts
  mentions: Mentions
  written: Written[]
}

/** The follower-count series and the tweets, loaded by another. */
export interface SeriesTables {
  followersCountHistory: SidecarRef
  tweets: LoadedTweets
  written: Written[]
}

/** One worker thread's part (typed arrays and sidecar references only, transferable); run by `load-worker.ts`. */
export async function loadWorkerPart({ dir, sidecars, owner, part }: WorkerInput): Promise<GraphTables | SeriesTables> {
  const instance = await DuckDBInstance.create(':memory:')
  const { step, settled } = stepRunner(instance)
  const file = (name: string) => `read_parquet('${path.join(dir, name).replaceAll("'", "''")}')`
  const input: Sidecars = { dir: sidecars, owner, written: [] }
  try {
    const n = await step(`${part}.accounts`, (c) => countRows(c, file('accounts.parquet')))
    if (part === 'graph') {
      const [smartFollowers, categorizedCounts, mentions] = await Promise.all([
        step('smartFollowers', (c) =>
          loadSmartFollowers(c, n, file('smart_followers.parquet'), input, { categories: file('account_categories.parquet'), tags: file('account_tags.parquet') }),
        ),
        step('categorizedCounts', async (c) => (await loadCsr(c, n, file('categorized_followers_count.parquet'), input, CATEGORIZED_COUNTS)) as unknown as CategorizedCounts),
        step('mentions', async (c) => (await loadCsr(c, n, file('mentions.parquet'), input, mentionsSpec('mentions.bin'))) as unknown as Mentions),
      ])
      return { smartFollowers, categorizedCounts, mentions, written: input.written }
    }
    const [followersCountHistory, tweets] = await Promise.all([
      step('followersCountHistory', (c) =>
        writeSeries(c, n, file('followers_count_history.parquet'), input, FOLLOWERS_COUNT_HISTORY),
      ),
      step('tweets', (c) => loadTweets(c, file('tweets.parquet'), input)),
    ])
    return { followersCountHistory, tweets, written: input.written }
  } catch (error) {
    await settled()
    abandon(input.written)
    throw error
  } finally {
    instance.closeSync()
  }
}

async function countRows(conn: DuckDBConnection, source: string): Promise<number> {
  const reader = await conn.runAndReadAll(`SELECT count(*)::INTEGER FROM ${source}`)
  return reader.getRows()[0][0] as number
}

/** The account texts kept on disk (read when a row's JSON is made), one sidecar each. */
const ACCOUNT_TEXTS = {
  description: { file: 'account_descriptions.bin', expression: "coalesce(description, '')", nulls: false },
  profileImage: { file: 'account_profile_images.bin', expression: 'profile_image', nulls: true },
} as const

/** The string columns, the texts and the numeric ones load concurrently. */
async function loadAccounts(step: Step, source: string, count: number, sidecars: Sidecars, opener: SidecarOpener): Promise<Accounts> {
  const numbers = accountNumbers(count)
  const texts = (column: keyof typeof ACCOUNT_TEXTS) => {
    const { file, expression, nulls } = ACCOUNT_TEXTS[column]
    return step(`accounts.${column}`, async (c) =>
      textColumn(opener.open(await textSidecar(c, source, sidecars, file, expression, 'account_idx', count, nulls))),
    )
  }
  const [[platformId, username, slug, name], description, profileImage] = await Promise.all([
    step('accounts.strings', (c) => readStrings(c, source, ['platform_id::VARCHAR', 'username', 'slug', 'name'], 'account_idx', count)),
    texts('description'),
    texts('profileImage'),
    step('accounts.numbers', (c) => loadAccountNumbers(c, source, numbers)),
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
    byId: new IdIndex(numbers.numericId),
  }
}

type AccountNumbers = Omit<Accounts, 'count' | 'platformId' | 'username' | 'slug' | 'name' | 'description' | 'profileImage' | 'byId'>

function accountNumbers(count: number): AccountNumbers {
  return {
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
}

async function loadAccountNumbers(conn: DuckDBConnection, source: string, a: AccountNumbers): Promise<void> {
  const flags = [a.blueVerified, a.isTracked, a.isMonitored, a.isSmart]
  await scan(
    conn,
    `SELECT blue_verified::INTEGER, is_tracked::INTEGER, is_monitored::INTEGER, is_smart::INTEGER,
            platform_score::DOUBLE, coalesce(graph_score, 'NaN'::DOUBLE)::DOUBLE, followers_count::DOUBLE,
            smart_followers_count::INTEGER, coalesce(rank, 0)::INTEGER, platform_id::UBIGINT
     FROM ${source}`,
    (chunk, offset) => {
      const rows = chunk.rowCount
      flags.forEach((target, f) => {
        const values = int32Items(chunk.getColumnVector(f))
        for (let i = 0; i < rows; i++) target[offset + i] = values[i]
      })
      copyInto(a.platformScore, float64Items(chunk.getColumnVector(4)), rows, offset)
      copyInto(a.graphScore, float64Items(chunk.getColumnVector(5)), rows, offset)
      copyInto(a.followersCount, float64Items(chunk.getColumnVector(6)), rows, offset)
      copyInto(a.smartFollowersCount, int32Items(chunk.getColumnVector(7)), rows, offset)
      copyInto(a.rank, int32Items(chunk.getColumnVector(8)), rows, offset)
      copyInto(a.numericId, uint64Items(chunk.getColumnVector(9)), rows, offset)
    },
  )
  for (let i = 1; i < a.numericId.length; i++) {
    if (a.numericId[i - 1] >= a.numericId[i]) throw new Error('accounts.parquet is not sorted by platform_id')
  }
}

/**
 * Case-insensitive handle lookups (`Snapshot.byHandle`); a tracked account wins a handle shared with a friend-only
 * record. Built in Maps, kept as a `HandleIndex` (the Maps are garbage once it is built).
 */
async function usernameLookups(conn: DuckDBConnection, previousSource: string, a: Accounts): Promise<{ byHandle: HandleIndex }> {
  const byUsername = new Map<string, number>()
  const bySlug = new Map<string, number>()
  const claim = (map: Map<string, number>, key: string, idx: number) => {
    const holder = map.get(key)
    if (holder === undefined || (!a.isTracked[holder] && a.isTracked[idx])) map.set(key, idx)
  }
  for (let i = 0; i < a.count; i++) {
    const username = a.username[i].toLowerCase()
    claim(byUsername, username, i)
    // a slug equal to the account's own username can never decide (that username is a key of `byUsername`)
    const slug = a.slug[i]?.toLowerCase()
    if (slug && slug !== username) claim(bySlug, slug, i)
  }
  const byPreviousUsername = new Map<string, number>()
  const changedOn = new Map<string, number>()
  await scan(
    conn,
    `SELECT account_idx, lower(username), (changed_at - DATE '1970-01-01')::INTEGER FROM ${previousSource}`,
    (chunk) => {
      const idx = int32Items(chunk.getColumnVector(0))
      const handle = chunk.getColumnVector(1)
      const day = int32Items(chunk.getColumnVector(2))
      for (let i = 0; i < chunk.rowCount; i++) {
        const key = handle.getItem(i) as string
        if ((changedOn.get(key) ?? -Infinity) <= day[i]) {
          changedOn.set(key, day[i])
          byPreviousUsername.set(key, idx[i])
        }
      }
    },
  )
  return { byHandle: HandleIndex.fromMaps([byUsername, bySlug, byPreviousUsername]) }
}

/** Old handles per account in file order (changed_at, then username). */
async function loadPreviousUsernames(conn: DuckDBConnection, owners: number, source: string): Promise<PreviousUsernames> {
  const username: string[] = []
  const offsets = new OffsetsBuilder(owners)
  await scan(conn, `SELECT account_idx::INTEGER, username FROM ${source}`, (chunk) => {
    offsets.add(int32Items(chunk.getColumnVector(0)), chunk.rowCount)
    const handle = chunk.getColumnVector(1)
    for (let i = 0; i < chunk.rowCount; i++) username.push(handle.getItem(i) as string)
  })
  return { offsets: offsets.finish(), username }
}

async function loadReferences(conn: DuckDBConnection, sql: string): Promise<Reference[]> {
  const rows = (await conn.runAndReadAll(`${sql} ORDER BY 1`)).getRows()
  return rows.map(([id, name]) => ({ id: id as number, name: name as string }))
}

async function loadTags(conn: DuckDBConnection, source: string): Promise<Tag[]> {
  const rows = (
    await conn.runAndReadAll(`SELECT tag_id::INTEGER, name, tag_category_id::INTEGER FROM ${source} ORDER BY tag_id`)
  ).getRows()
  return rows.map(([id, name, tagCategoryId]) => ({
    id: id as number,
    name: name as string,
    tagCategoryId: tagCategoryId as number,
  }))
}

/** One row per (account, label id) in account order, e.g. account_categories.parquet's category_id. */
async function loadLabels(conn: DuckDBConnection, owners: number, source: string, idColumn: string): Promise<AccountLabels> {
  const ids = new Int32Array(await countRows(conn, source))
  const offsets = new OffsetsBuilder(owners)
  await scan(conn, `SELECT account_idx::INTEGER, ${idColumn}::INTEGER FROM ${source}`, (chunk, offset) => {
    offsets.add(int32Items(chunk.getColumnVector(0)), chunk.rowCount)
    copyInto(ids, int32Items(chunk.getColumnVector(1)), chunk.rowCount, offset)
  })
  const mask = new Uint32Array(owners)
  const finished = offsets.finish()
  for (let idx = 0; idx < owners; idx++) {
    for (let r = finished[idx]; r < finished[idx + 1]; r++) if (ids[r] >= 0 && ids[r] < 32) mask[idx] |= 1 << ids[r]
  }
  return { offsets: finished, ids, mask }
}

/**
 * The typed arrays of one table, cached in a sidecar: read back when this snapshot's file is there (no Parquet
 * decoding on a restart), else loaded by `load` (and written when the sidecar is committed, after the load).
 * Columns in `onDisk` stay on disk; `load` writes them.
 */
async function cachedTable<T extends Record<string, AnyArray>>(
  sidecars: Sidecars,
  file: string,
  inMemory: Record<keyof T & string, { type: ColumnType; rows: number }>,
  onDisk: { name: string; type: ColumnType; rows: number }[],
  load: (writer: SidecarWriter) => Promise<T>,
): Promise<{ arrays: T; ref: SidecarRef }> {
  const target = path.join(sidecars.dir, file)
  const existing = findSidecar(target, sidecars.owner, [...Object.keys(inMemory), ...onDisk.map(({ name }) => name)])
  if (existing) return { arrays: readColumns(existing, Object.keys(inMemory)) as T, ref: existing }
  const columns = Object.entries(inMemory) as [string, { type: ColumnType; rows: number }][]
  const writer = new SidecarWriter(target, sidecars.owner, [...columns.map(([name, c]) => ({ name, ...c })), ...onDisk])
  try {
    const arrays = await load(writer)
    const ref = writer.finish()
    sidecars.written.push({ ref, pending: arrays })
    return { arrays, ref }
  } catch (error) {
    writer.abandon()
    throw error
  }
}

/** Smart followers as they cross from the worker: the columns read per request stay in the sidecar. */
type LoadedSmartFollowers = Omit<SmartFollowers, OnDisk> & { sidecar: SidecarRef }
type OnDisk = 'subscribedAtMs' | 'followerLabels' | 'followerIdxBy'

/** The sidecar columns of the follower at each position of the other two orders. */
const FOLLOWER_IDX_BY = {
  followers: 'follower_idx_by_followers',
  subscribed_at: 'follower_idx_by_subscribed',
} as const satisfies Record<keyof SmartFollowers['followerIdxBy'], string>

/** The sidecar columns of each row's follower: score and label masks (see `SmartFollowers.followerLabels`). */
const FOLLOWER_LABELS = {
  score: 'follower_score',
  categories: 'follower_category_mask',
  tagsLow: 'follower_tag_mask_low',
  tagsHigh: 'follower_tag_mask_high',
} as const satisfies Record<keyof SmartFollowers['followerLabels'], string>

/** The sidecar columns of `subscribed_at` (epoch ms) by order: row order (score), then the other two positions. */
const SUBSCRIBED_AT_MS = {
  score: 'subscribed_at_ms',
  followers: 'subscribed_at_ms_by_followers',
  subscribed_at: 'subscribed_at_ms_by_subscribed',
} as const satisfies Record<keyof SmartFollowers['subscribedAtMs'], string>

async function loadSmartFollowers(
  conn: DuckDBConnection,
  owners: number,
  source: string,
  sidecars: Sidecars,
  labels: { categories: string; tags: string },
): Promise<LoadedSmartFollowers> {
  const count = await countRows(conn, source)
  const rows = { type: 'i32', rows: count } as const
  const { arrays, ref } = await cachedTable(
    sidecars,
    'smart_followers.bin',
    {
      offsets: { type: 'i32', rows: owners + 1 },
      followerIdx: rows,
      scoreSum: { type: 'f64', rows: owners },
    },
    [
      ...Object.values(SUBSCRIBED_AT_MS).map((name) => ({ name, type: 'f64', rows: count }) as const),
      ...Object.values(FOLLOWER_IDX_BY).map((name) => ({ name, type: 'i32', rows: count }) as const),
      { name: FOLLOWER_LABELS.score, type: 'f64', rows: count },
      { name: FOLLOWER_LABELS.categories, type: 'u32', rows: count },
      { name: FOLLOWER_LABELS.tagsLow, type: 'u32', rows: count },
      { name: FOLLOWER_LABELS.tagsHigh, type: 'u32', rows: count },
    ],
    async (writer) => {
      const masks = await labelMasks(conn, owners, labels)
      const rowMasks = { categories: new Uint32Array(0), tagsLow: new Uint32Array(0), tagsHigh: new Uint32Array(0) }
      const s = {
        followerIdx: new Int32Array(count),
        scoreSum: new Float64Array(owners),
      }
      const offsets = new OffsetsBuilder(owners)
      // the current target's rows; once its last row is in, its followers and dates are written at their positions
      // in the other two orders, so a page in any order reads consecutive positions (only the biggest target's rows
      // are held at a time)
      const positioned = new PositionedRows(writer)
      let current = -1
      await scan(
        conn,
        `SELECT target_idx::INTEGER, follower_idx::INTEGER, pos_by_followers::INTEGER, pos_by_subscribed::INTEGER,
                follower_score::DOUBLE, epoch_ms(subscribed_at)::DOUBLE FROM ${source}`,
        (chunk, offset) => {
          const rows = chunk.rowCount
          const targets = int32Items(chunk.getColumnVector(0))
          offsets.add(targets, rows)
          const followers = int32Items(chunk.getColumnVector(1))
          copyInto(s.followerIdx, followers, rows, offset)
          const byFollowers = int32Items(chunk.getColumnVector(2))
          const bySubscribed = int32Items(chunk.getColumnVector(3))
          const scores = float64Items(chunk.getColumnVector(4))
          const subscribedAt = float64Items(chunk.getColumnVector(5)).subarray(0, rows)
          writer.write(SUBSCRIBED_AT_MS.score, subscribedAt, offset)
          writer.write(FOLLOWER_LABELS.score, scores.subarray(0, rows), offset)
          for (const kind of ['categories', 'tagsLow', 'tagsHigh'] as const) {
            if (rowMasks[kind].length < rows) rowMasks[kind] = new Uint32Array(rows)
            const out = rowMasks[kind]
            for (let i = 0; i < rows; i++) out[i] = masks[kind][followers[i]]
            writer.write(FOLLOWER_LABELS[kind], out.subarray(0, rows), offset)
          }
          // rows arrive grouped by target, so a target's first row is where its positions start
          for (let i = 0; i < rows; i++) {
            if (targets[i] !== current) {
              current = targets[i]
              positioned.startTarget(offset + i)
            }
            s.scoreSum[current] += scores[i]
            positioned.add(followers[i], byFollowers[i], bySubscribed[i], subscribedAt[i])
          }
        },
      )
      positioned.startTarget(count)
      return { offsets: offsets.finish(), ...s }
    },
  )
  return { ...(arrays as unknown as Omit<SmartFollowers, OnDisk>), sidecar: ref }
}

/**
 * Per account: category ids 0..31 and tag ids 0..62 as bit masks, bit 31 of `tagsHigh` (`OTHER_LABELS`) set when
 * it has any other category or tag id.
 */
async function labelMasks(conn: DuckDBConnection, owners: number, labels: { categories: string; tags: string }) {
  const masks = { categories: new Uint32Array(owners), tagsLow: new Uint32Array(owners), tagsHigh: new Uint32Array(owners) }
  const bits = (id: string, from: number, to: number) =>
    `bit_or(CASE WHEN ${id} BETWEEN ${from} AND ${to} THEN 1::UBIGINT << (${id} - ${from}) ELSE 0 END)::DOUBLE`
  const other = (condition: string) => `bool_or(${condition})::INTEGER * ${2 ** 31}::DOUBLE`
  for (const [source, sql] of [
    [labels.categories, `${bits('category_id', 0, 31)}, 0::DOUBLE, ${other('category_id NOT BETWEEN 0 AND 31')}`],
    [labels.tags, `0::DOUBLE, ${bits('tag_id', 0, 31)}, ${bits('tag_id', 32, 62)} + ${other('tag_id NOT BETWEEN 0 AND 62')}`],
  ]) {
    await scan(conn, `SELECT account_idx::INTEGER, ${sql} FROM ${source} GROUP BY 1`, (chunk) => {
      const accounts = int32Items(chunk.getColumnVector(0))
      const [categories, tagsLow, tagsHigh] = [1, 2, 3].map((c) => float64Items(chunk.getColumnVector(c)))
      for (let i = 0; i < chunk.rowCount; i++) {
        const a = accounts[i]
        masks.categories[a] |= categories[i]
        masks.tagsLow[a] |= tagsLow[i]
        masks.tagsHigh[a] |= tagsHigh[i]
      }
    })
  }
  return masks
}

/**
 * One target's rows (as they arrive: follower, its positions in the other two orders, subscription date), written to
 * the by-followers and by-subscribed columns at their positions when the next target starts.
 */
class PositionedRows {
  start = 0
  #count = 0
  #followers = new Int32Array(1024)
  #byFollowers = new Int32Array(1024)
  #bySubscribed = new Int32Array(1024)
  #dates = new Float64Array(1024)
  #outFollowers = new Int32Array(1024)
  #outDates = new Float64Array(1024)

  constructor(private readonly writer: SidecarWriter) {}

  add(follower: number, byFollowers: number, bySubscribed: number, date: number): void {
    if (this.#count === this.#followers.length) this.#grow(this.#count * 2)
    this.#followers[this.#count] = follower
    this.#byFollowers[this.#count] = byFollowers
    this.#bySubscribed[this.#count] = bySubscribed
    this.#dates[this.#count] = date
    this.#count++
  }

  /** Write the previous target's rows by position, then collect those of the target whose first row is `row`. */
  startTarget(row: number): void {
    const n = this.#count
    if (n > 0) {
      const followers = this.#outFollowers.subarray(0, n)
      const dates = this.#outDates.subarray(0, n)
      for (const [positionOf, followerColumn, dateColumn] of [
        [this.#byFollowers, FOLLOWER_IDX_BY.followers, SUBSCRIBED_AT_MS.followers],
        [this.#bySubscribed, FOLLOWER_IDX_BY.subscribed_at, SUBSCRIBED_AT_MS.subscribed_at],
      ] as const) {
        for (let r = 0; r < n; r++) {
          followers[positionOf[r]] = this.#followers[r]
          dates[positionOf[r]] = this.#dates[r]
        }
        this.writer.write(followerColumn, followers, this.start)
        this.writer.write(dateColumn, dates, this.start)
      }
    }
    this.start = row
    this.#count = 0
  }

  #grow(size: number): void {
    const grown = <T extends Int32Array | Float64Array>(from: T, make: (n: number) => T) => {
      const to = make(size)
      to.set(from)
      return to
    }
    this.#followers = grown(this.#followers, (k) => new Int32Array(k))
    this.#byFollowers = grown(this.#byFollowers, (k) => new Int32Array(k))
    this.#bySubscribed = grown(this.#bySubscribed, (k) => new Int32Array(k))
    this.#dates = grown(this.#dates, (k) => new Float64Array(k))
    this.#outFollowers = new Int32Array(size)
    this.#outDates = new Float64Array(size)
  }
}

/** A subscription date is read for a page's positions only, in the order of the page. */
function openSmartFollowers({ sidecar, ...s }: LoadedSmartFollowers, opener: SidecarOpener): SmartFollowers {
  const file = opener.open(sidecar)
  return {
    ...s,
    subscribedAtMs: {
      score: file.column(SUBSCRIBED_AT_MS.score, 'f64'),
      followers: file.column(SUBSCRIBED_AT_MS.followers, 'f64'),
      subscribed_at: file.column(SUBSCRIBED_AT_MS.subscribed_at, 'f64'),
    },
    followerIdxBy: {
      followers: file.column(FOLLOWER_IDX_BY.followers, 'i32'),
      subscribed_at: file.column(FOLLOWER_IDX_BY.subscribed_at, 'i32'),
    },
    followerLabels: {
      score: file.column(FOLLOWER_LABELS.score, 'f64'),
      categories: file.column(FOLLOWER_LABELS.categories, 'u32'),
      tagsLow: file.column(FOLLOWER_LABELS.tagsLow, 'u32'),
      tagsHigh: file.column(FOLLOWER_LABELS.tagsHigh, 'u32'),
    },
  }
}

/**
 * A one-to-many table held in memory and cached in a sidecar: the owner column `owner`, then `columns`, in file
 * order. Column `offsets` holds the CSR offsets by owner.
 */
interface CsrSpec {
  file: string
  owner: string
  columns: { name: string; type: NumericType; sql: string }[]
}

const CATEGORIZED_COUNTS: CsrSpec = {
  file: 'categorized_followers_count.bin',
  owner: 'target_idx',
  columns: [
    { name: 'categoryId', type: 'i16', sql: 'coalesce(category_id, -1)::INTEGER' },
    { name: 'cnt', type: 'u32', sql: 'cnt::DOUBLE' },
  ],
}

/** Both mention tables (all mentions, smart authors' only) share this layout under their own sidecar file. */
const mentionsSpec = (file: string): CsrSpec => ({
  file,
  owner: 'target_idx',
  columns: [
    { name: 'tweetIdx', type: 'i32', sql: 'tweet_idx::INTEGER' },
    { name: 'epochSeconds', type: 'u32', sql: 'epoch_s::DOUBLE' },
  ],
})

async function loadCsr(
  conn: DuckDBConnection,
  owners: number,
  source: string,
  sidecars: Sidecars,
  spec: CsrSpec,
): Promise<Record<string, AnyArray>> {
  const count = await countRows(conn, source)
  const inMemory = Object.fromEntries([
    ['offsets', { type: 'i32', rows: owners + 1 }],
    ...spec.columns.map(({ name, type }) => [name, { type, rows: count }]),
  ])
  const { arrays } = await cachedTable(sidecars, spec.file, inMemory, [], async () => {
    const columns = spec.columns.map(({ type }) => newColumn(type, count))
    const offsets = new OffsetsBuilder(owners)
    await scan(
      conn,
      `SELECT ${spec.owner}::INTEGER, ${spec.columns.map((c) => c.sql).join(', ')} FROM ${source}`,
      (chunk, offset) => {
        offsets.add(int32Items(chunk.getColumnVector(0)), chunk.rowCount)
        columns.forEach((column, c) => copyInto(column, numberItems(chunk.getColumnVector(c + 1)), chunk.rowCount, offset))
      },
    )
    return { offsets: offsets.finish(), ...Object.fromEntries(spec.columns.map(({ name }, c) => [name, columns[c]])) }
  })
  return arrays
}

/**
 * A daily series kept in a sidecar (see sidecar.ts): the owner column `account_idx`, then `columns`, in file order
 * (newest day first per account). Column `offsets` holds the CSR offsets by account.
 */
interface SeriesSpec {
  file: string
  columns: { name: string; type: ColumnType; sql: string }[]
}

const FOLLOWERS_COUNT_HISTORY: SeriesSpec = {
  file: 'followers_count_history.bin',
  columns: [
    { name: 'day', type: 'u16', sql: "(date - DATE '1970-01-01')::INTEGER" },
    { name: 'followers_count', type: 'u32', sql: 'followers_count::DOUBLE' },
  ],
}

const SCORE_HISTORY: SeriesSpec = {
  file: 'score_history.bin',
  columns: [
    { name: 'day', type: 'u16', sql: "(date - DATE '1970-01-01')::INTEGER" },
    { name: 'platform_score', type: 'f64', sql: 'platform_score::DOUBLE' },
    { name: 'rank', type: 'i32', sql: 'coalesce(rank, 0)::INTEGER' },
  ],
}

/** The series' sidecar: the committed one of this snapshot when there is one, else written from `source` now. */
async function writeSeries(
  conn: DuckDBConnection,
  owners: number,
  source: string,
  sidecars: Sidecars,
  spec: SeriesSpec,
): Promise<SidecarRef> {
  const target = path.join(sidecars.dir, spec.file)
  const existing = findSidecar(target, sidecars.owner, ['offsets', ...spec.columns.map(({ name }) => name)])
  if (existing) return existing
  const rows = await countRows(conn, source)
  const writer = new SidecarWriter(target, sidecars.owner, [
    { name: 'offsets', type: 'i32', rows: owners + 1 },
    ...spec.columns.map(({ name, type }) => ({ name, type, rows })),
  ])
  try {
    const offsets = new OffsetsBuilder(owners)
    await scan(
      conn,
      `SELECT account_idx::INTEGER, ${spec.columns.map((c) => c.sql).join(', ')} FROM ${source}`,
      (chunk, offset) => {
        offsets.add(int32Items(chunk.getColumnVector(0)), chunk.rowCount)
        spec.columns.forEach((column, c) => {
          writer.write(column.name, numberItems(chunk.getColumnVector(c + 1)).subarray(0, chunk.rowCount), offset)
        })
      },
    )
    writer.write('offsets', offsets.finish(), 0)
    const ref = writer.finish()
    sidecars.written.push({ ref, pending: {} })
    return ref
  } catch (error) {
    writer.abandon()
    throw error
  }
}

function openFollowersCountHistory(sidecar: Sidecar): FollowersCountHistory {
  return {
    offsets: sidecar.read('offsets', 'i32'),
    day: sidecar.column('day', 'u16'),
    followersCount: sidecar.column('followers_count', 'u32'),
  }
}

function openScoreHistory(sidecar: Sidecar): ScoreHistory {
  return {
    offsets: sidecar.read('offsets', 'i32'),
    day: sidecar.column('day', 'u16'),
    platformScore: sidecar.column('platform_score', 'f64'),
    rank: sidecar.column('rank', 'i32'),
  }
}

async function loadFriendshipFollowed(conn: DuckDBConnection, owners: number, source: string): Promise<FriendshipFollowed> {
  const count = await countRows(conn, source)
  const followerIdx = new Int32Array(count)
  const followedFlag = new Int32Array(count)
  const day = new Int32Array(count)
  const offsets = new OffsetsBuilder(owners)
  await scan(
    conn,
    `SELECT target_idx::INTEGER, follower_idx::INTEGER, (action = 'Followed')::INTEGER,
            (event_date - DATE '1970-01-01')::INTEGER FROM ${source}`,
    (chunk, offset) => {
      offsets.add(int32Items(chunk.getColumnVector(0)), chunk.rowCount)
      copyInto(followerIdx, int32Items(chunk.getColumnVector(1)), chunk.rowCount, offset)
      copyInto(followedFlag, int32Items(chunk.getColumnVector(2)), chunk.rowCount, offset)
      copyInto(day, int32Items(chunk.getColumnVector(3)), chunk.rowCount, offset)
    },
  )
  return { offsets: offsets.finish(), followerIdx, followed: Uint8Array.from(followedFlag), day }
}

async function loadFriendshipFollowing(
  conn: DuckDBConnection,
  owners: number,
  source: string,
): Promise<FriendshipFollowing> {
  const count = await countRows(conn, source)
  const followedIdx = new Int32Array(count)
  const followingFlag = new Int32Array(count)
  const day = new Int32Array(count)
  const platformScore = new Float64Array(count)
  const offsets = new OffsetsBuilder(owners)
  await scan(
    conn,
    `SELECT source_idx::INTEGER, followed_idx::INTEGER, (action = 'Following')::INTEGER,
            (event_date - DATE '1970-01-01')::INTEGER, platform_score::DOUBLE FROM ${source}`,
    (chunk, offset) => {
      offsets.add(int32Items(chunk.getColumnVector(0)), chunk.rowCount)
      copyInto(followedIdx, int32Items(chunk.getColumnVector(1)), chunk.rowCount, offset)
      copyInto(followingFlag, int32Items(chunk.getColumnVector(2)), chunk.rowCount, offset)
      copyInto(day, int32Items(chunk.getColumnVector(3)), chunk.rowCount, offset)
      copyInto(platformScore, float64Items(chunk.getColumnVector(4)), chunk.rowCount, offset)
    },
  )
  return { offsets: offsets.finish(), followedIdx, following: Uint8Array.from(followingFlag), day, platformScore }
}

/** At most 12 lists of 1000 rows: plain objects, ready to serialise. */
async function loadSmartFollows(conn: DuckDBConnection, source: string): Promise<Map<string, SmartFollowsList>> {
  const rows = (
    await conn.runAndReadAll(
      `SELECT days::INTEGER AS days, bucket, pos_by_score::INTEGER AS pos_by_score,
              pos_by_followers::INTEGER AS pos_by_followers, platform_id::VARCHAR AS platform_id, username, name,
              description, profile_url, profile_image, blue_verified, platform_score::DOUBLE AS platform_score,
              platform_score_diff::DOUBLE AS platform_score_diff, current_followers::DOUBLE AS current_followers,
              followers_diff::DOUBLE AS followers_diff, total_alpha_followers::DOUBLE AS total_alpha_followers,
              new_alpha_followers::DOUBLE AS new_alpha_followers,
              new_alpha_followers_diff::DOUBLE AS new_alpha_followers_diff,
              top_alpha_followers
       FROM ${source} ORDER BY days, bucket, rank_alpha`,
    )
  ).getRowObjectsJS()
  const lists = new Map<string, SmartFollowsList>()
  for (const row of rows) {
    const key = `${row.days}:${row.bucket}`
    let list = lists.get(key)
    if (!list) lists.set(key, (list = { byRank: [], byScore: [], byFollowers: [] }))
    const { days: _d, bucket: _b, pos_by_score, pos_by_followers, ...item } = row
    const typed = item as unknown as SmartFollowsItem
    typed.top_alpha_followers = (typed.top_alpha_followers ?? []).map((f) => ({
      name: f.name ?? '',
      username: f.username ?? '',
      image: f.image ?? '',
      score: f.score ?? 0,
      verified: Boolean(f.verified),
    }))
    list.byRank.push(typed)
    list.byScore[pos_by_score as number] = typed
    list.byFollowers[pos_by_followers as number] = typed
  }
  return lists
}

/** Tweets as they cross from the worker: the texts stay in their sidecar (`textSidecar`), their NULL flags here. */
type LoadedTweets = Omit<Tweets, 'text'> & { texts: SidecarRef; textIsNull: Uint8Array }

const TWEET_TEXTS = 'tweet_texts.bin'

async function loadTweets(conn: DuckDBConnection, source: string, sidecars: Sidecars): Promise<LoadedTweets> {
  const count = await countRows(conn, source)
  const texts = await textSidecar(conn, source, sidecars, TWEET_TEXTS, 'text', 'tweet_idx', count, false)
  const u32 = { type: 'u32', rows: count } as const
  const { arrays } = await cachedTable(
    sidecars,
    'tweets.bin',
    {
      tweetId: { type: 'u64', rows: count },
      authorId: { type: 'u64', rows: count },
      authorIdx: { type: 'i32', rows: count },
      createdAtMs: { type: 'f64', rows: count },
      textIsNull: { type: 'u8', rows: count },
      favorites: u32,
      retweets: u32,
      replies: u32,
      views: u32,
    },
    [],
    async () => {
      const t = {
        tweetId: new BigUint64Array(count),
        authorId: new BigUint64Array(count),
        authorIdx: new Int32Array(count),
        createdAtMs: new Float64Array(count),
        textIsNull: new Uint8Array(count),
        favorites: new Uint32Array(count),
        retweets: new Uint32Array(count),
        replies: new Uint32Array(count),
        views: new Uint32Array(count),
      }
      await scan(
        conn,
        `SELECT tweet_id::UBIGINT, author_id::UBIGINT, coalesce(author_idx, -1)::INTEGER, epoch_ms(created_at)::DOUBLE,
                (text IS NULL)::INTEGER, favorites::DOUBLE, retweets::DOUBLE, replies::DOUBLE, views::DOUBLE
         FROM ${source}`,
        (chunk, offset) => {
          const rows = chunk.rowCount
          copyInto(t.tweetId, uint64Items(chunk.getColumnVector(0)), rows, offset)
          copyInto(t.authorId, uint64Items(chunk.getColumnVector(1)), rows, offset)
          copyInto(t.authorIdx, int32Items(chunk.getColumnVector(2)), rows, offset)
          copyInto(t.createdAtMs, float64Items(chunk.getColumnVector(3)), rows, offset)
          copyInto(t.textIsNull, int32Items(chunk.getColumnVector(4)), rows, offset)
          copyInto(t.favorites, float64Items(chunk.getColumnVector(5)), rows, offset)
          copyInto(t.retweets, float64Items(chunk.getColumnVector(6)), rows, offset)
          copyInto(t.replies, float64Items(chunk.getColumnVector(7)), rows, offset)
          copyInto(t.views, float64Items(chunk.getColumnVector(8)), rows, offset)
        },
      )
      return t
    },
  )
  return { count, ...(arrays as unknown as Omit<LoadedTweets, 'count' | 'texts'>), texts }
}

/**
 * A text column's sidecar, found or written: UTF-8 bytes streamed from DuckDB straight to the file (column `text`),
 * their offsets by `dense` row (`offsets`), and with `nulls` which rows are NULL (`is_null`).
 */
async function textSidecar(
  conn: DuckDBConnection,
  source: string,
  sidecars: Sidecars,
  file: string,
  expression: string,
  dense: string,
  count: number,
  nulls: boolean,
): Promise<SidecarRef> {
  const target = path.join(sidecars.dir, file)
  const existing = findSidecar(target, sidecars.owner, nulls ? ['offsets', 'is_null', 'text'] : ['offsets', 'text'])
  if (existing) return existing
  const writer = new SidecarWriter(target, sidecars.owner, [
    { name: 'offsets', type: 'u32', rows: count + 1 },
    ...(nulls ? [{ name: 'is_null', type: 'u8', rows: count } as const] : []),
    { name: 'text', type: 'u8', rows: null },
  ])
  try {
    if (nulls) {
      await scan(conn, `SELECT (${expression} IS NULL)::INTEGER FROM ${source} ORDER BY ${dense}`, (chunk, offset) =>
        writer.write('is_null', int32Items(chunk.getColumnVector(0)).subarray(0, chunk.rowCount), offset),
      )
    }
    writer.write('offsets', await readUtf8(conn, source, expression, dense, count, (bytes) => writer.append(bytes)), 0)
    const ref = writer.finish()
    sidecars.written.push({ ref, pending: {} })
    return ref
  } catch (error) {
    writer.abandon()
    throw error
  }
}

/** The text column of a sidecar written by `textSidecar` (NULL flags from its `is_null` column, or given). */
function textColumn(sidecar: Sidecar, isNull: Uint8Array | null = null): TextColumn {
  const nulls = sidecar.has('is_null') ? sidecar.read('is_null', 'u8') : isNull
  return new TextColumn(sidecar.read('offsets', 'u32'), sidecar.utf8('text'), nulls)
}

function openTweets({ texts, textIsNull, ...tweets }: LoadedTweets, opener: SidecarOpener): Tweets {
  return { ...tweets, text: textColumn(opener.open(texts), textIsNull) }
}

/** One list per (days, metric); each row lands at its rank, so the lists need no sorting. */
async function loadTrending(conn: DuckDBConnection, source: string): Promise<Map<string, TrendingList>> {
  const lists = new Map<string, TrendingList>()
  const sizes = (await conn.runAndReadAll(`SELECT days::INTEGER, metric, count(*)::INTEGER FROM ${source} GROUP BY ALL`)).getRows()
  const byCode: TrendingList[] = []
  for (const [days, metric, rows] of sizes) {
    const list = {
      accountIdx: new Int32Array(rows as number),
      platformScoreDiff: new Float64Array(rows as number),
      smartFollowersDiff: new Int32Array(rows as number),
    }
    lists.set(`${days}:${metric}`, list)
    byCode[trendingCode(days as number, metric as string)] = list
  }
  await scan(
    conn,
    `SELECT days::INTEGER * 2 + (metric = 'score')::INTEGER, rank::INTEGER - 1, account_idx::INTEGER,
            platform_score_diff::DOUBLE, smart_followers_diff::DOUBLE FROM ${source}`,
    (chunk) => {
      const code = int32Items(chunk.getColumnVector(0))
      const position = int32Items(chunk.getColumnVector(1))
      const idx = int32Items(chunk.getColumnVector(2))
      const scoreDiff = float64Items(chunk.getColumnVector(3))
      const followersDiff = float64Items(chunk.getColumnVector(4))
      for (let i = 0; i < chunk.rowCount; i++) {
        const list = byCode[code[i]]
        list.accountIdx[position[i]] = idx[i]
        list.platformScoreDiff[position[i]] = scoreDiff[i]
        list.smartFollowersDiff[position[i]] = followersDiff[i]
      }
    },
  )
  return lists
}

const trendingCode = (days: number, metric: string) => days * 2 + (metric === 'score' ? 1 : 0)

/** At most 3 lists of 1000 rows. */
async function loadTopResearched(conn: DuckDBConnection, source: string): Promise<Map<number, TopResearchedList>> {
  const rows = (
    await conn.runAndReadAll(`SELECT days::INTEGER, account_idx::INTEGER, lookups::DOUBLE FROM ${source} ORDER BY days, rank`)
  ).getRows()
  const lists = new Map<number, TopResearchedList>()
  for (const days of new Set(rows.map((row) => row[0] as number))) {
    const list = rows.filter((row) => row[0] === days)
    lists.set(days, {
      accountIdx: Int32Array.from(list, (row) => row[1] as number),
      lookups: Float64Array.from(list, (row) => row[2] as number),
    })
  }
  return lists
}
