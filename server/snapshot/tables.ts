/**
 * One loader per snapshot file (docs/snapshot.md) into the serving structures of `types.ts`. Each reads its file
 * once, in file order, on its own DuckDB connection.
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import { OffsetsBuilder, copyInto, float64Items, int32Items, numberItems, readUtf8, scan, uint64Items } from './columns.ts'
import { Texts } from './texts.ts'
import type {
  AccountLabels,
  Adjacency,
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
  Tag,
  TopResearchedList,
  TrendingList,
  Tweets,
} from './types.ts'

type Column = Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float64Array | BigUint64Array

export async function countRows(conn: DuckDBConnection, source: string): Promise<number> {
  const reader = await conn.runAndReadAll(`SELECT count(*)::INTEGER FROM ${source}`)
  return reader.getRows()[0][0] as number
}

/**
 * Rows grouped by an owner column (sorted ascending in the file) as CSR: `offsets` by owner, then one typed array
 * per entry of `columns` (SQL cast to INTEGER, DOUBLE or UBIGINT, copied into an array of the given kind).
 * @example await loadGrouped(conn, accounts, source, 'account_idx', { day: [Uint16Array, 'day::INTEGER'] })
 */
export async function loadGrouped<C extends Record<string, [new (n: number) => Column, string]>>(
  conn: DuckDBConnection,
  owners: number,
  source: string,
  owner: string,
  columns: C,
): Promise<Adjacency & { [K in keyof C]: InstanceType<C[K][0]> }> {
  const count = await countRows(conn, source)
  const entries = Object.entries(columns)
  const arrays = entries.map(([, [Type]]) => new Type(count))
  const offsets = new OffsetsBuilder(owners)
  await scan(conn, `SELECT ${owner}::INTEGER, ${entries.map(([, [, sql]]) => sql).join(', ')} FROM ${source}`, (chunk, offset) => {
    offsets.add(int32Items(chunk.getColumnVector(0)), chunk.rowCount)
    arrays.forEach((array, c) => {
      const vector = chunk.getColumnVector(c + 1)
      copyInto(array, array instanceof BigUint64Array ? uint64Items(vector) : numberItems(vector), chunk.rowCount, offset)
    })
  })
  const result: Record<string, unknown> = { offsets: offsets.finish() }
  entries.forEach(([name], c) => (result[name] = arrays[c]))
  return result as Adjacency & { [K in keyof C]: InstanceType<C[K][0]> }
}

const DAY = "(date - DATE '1970-01-01')::INTEGER"

export const loadFollowersCountHistory = (conn: DuckDBConnection, owners: number, source: string): Promise<FollowersCountHistory> =>
  loadGrouped(conn, owners, source, 'account_idx', { day: [Uint16Array, DAY], followersCount: [Uint32Array, 'followers_count::DOUBLE'] })

export const loadScoreHistory = (conn: DuckDBConnection, owners: number, source: string): Promise<ScoreHistory> =>
  loadGrouped(conn, owners, source, 'account_idx', {
    day: [Uint16Array, DAY],
    platformScore: [Float64Array, 'platform_score::DOUBLE'],
    rank: [Int32Array, 'coalesce(rank, 0)::INTEGER'],
  })

export const loadCategorizedCounts = (conn: DuckDBConnection, owners: number, source: string): Promise<CategorizedCounts> =>
  loadGrouped(conn, owners, source, 'target_idx', {
    categoryId: [Int16Array, 'coalesce(category_id, -1)::INTEGER'],
    cnt: [Uint32Array, 'cnt::DOUBLE'],
  })

/** Both mention tables (all mentions, smart authors' only). */
export const loadMentions = (conn: DuckDBConnection, owners: number, source: string): Promise<Mentions> =>
  loadGrouped(conn, owners, source, 'target_idx', { tweetIdx: [Int32Array, 'tweet_idx::INTEGER'], epochSeconds: [Uint32Array, 'epoch_s::DOUBLE'] })

export const loadFriendshipFollowed = (conn: DuckDBConnection, owners: number, source: string): Promise<FriendshipFollowed> =>
  loadGrouped(conn, owners, source, 'target_idx', {
    followerIdx: [Int32Array, 'follower_idx::INTEGER'],
    followed: [Uint8Array, "(action = 'Followed')::INTEGER"],
    day: [Int32Array, "(event_date - DATE '1970-01-01')::INTEGER"],
  })

export const loadFriendshipFollowing = (conn: DuckDBConnection, owners: number, source: string): Promise<FriendshipFollowing> =>
  loadGrouped(conn, owners, source, 'source_idx', {
    followedIdx: [Int32Array, 'followed_idx::INTEGER'],
    following: [Uint8Array, "(action = 'Following')::INTEGER"],
    day: [Int32Array, "(event_date - DATE '1970-01-01')::INTEGER"],
    platformScore: [Float64Array, 'platform_score::DOUBLE'],
  })

/** One row per (account, label id) in account order, e.g. account_categories.parquet's category_id. */
export async function loadLabels(conn: DuckDBConnection, owners: number, source: string, idColumn: string): Promise<AccountLabels> {
  const { offsets, ids } = await loadGrouped(conn, owners, source, 'account_idx', { ids: [Int32Array, `${idColumn}::INTEGER`] })
  const mask = new Uint32Array(owners)
  for (let idx = 0; idx < owners; idx++) {
    for (let r = offsets[idx]; r < offsets[idx + 1]; r++) if (ids[r] >= 0 && ids[r] < 32) mask[idx] |= 1 << ids[r]
  }
  return { offsets, ids, mask }
}

/**
 * Smart followers by score (the file's order), and for the other two orders the row at each position: the file
 * gives each row's position in them (`pos_by_followers`, `pos_by_subscribed`, 0-based within its target).
 */
export async function loadSmartFollowers(conn: DuckDBConnection, owners: number, source: string): Promise<SmartFollowers> {
  const { offsets, followerIdx, subscribedAtMs, posByFollowers, posBySubscribed } = await loadGrouped(conn, owners, source, 'target_idx', {
    followerIdx: [Int32Array, 'follower_idx::INTEGER'],
    subscribedAtMs: [Float64Array, 'epoch_ms(subscribed_at)::DOUBLE'],
    posByFollowers: [Int32Array, 'pos_by_followers::INTEGER'],
    posBySubscribed: [Int32Array, 'pos_by_subscribed::INTEGER'],
  })
  const byFollowers = new Int32Array(followerIdx.length)
  for (let target = 0; target < owners; target++) {
    const first = offsets[target]
    for (let row = first; row < offsets[target + 1]; row++) byFollowers[first + posByFollowers[row]] = row
  }
  // (the positions by follower count are no longer needed: their array takes the other order)
  const bySubscribed = posByFollowers
  for (let target = 0; target < owners; target++) {
    const first = offsets[target]
    for (let row = first; row < offsets[target + 1]; row++) bySubscribed[first + posBySubscribed[row]] = row
  }
  return { offsets, followerIdx, subscribedAtMs, byFollowers, bySubscribed }
}

/** Old handles per account in file order (changed_at, then username). */
export async function loadPreviousUsernames(conn: DuckDBConnection, owners: number, source: string): Promise<PreviousUsernames> {
  const username: string[] = []
  const offsets = new OffsetsBuilder(owners)
  await scan(conn, `SELECT account_idx::INTEGER, username FROM ${source}`, (chunk) => {
    offsets.add(int32Items(chunk.getColumnVector(0)), chunk.rowCount)
    const handle = chunk.getColumnVector(1)
    for (let i = 0; i < chunk.rowCount; i++) username.push(handle.getItem(i) as string)
  })
  return { offsets: offsets.finish(), username }
}

export async function loadReferences(conn: DuckDBConnection, sql: string): Promise<Reference[]> {
  const rows = (await conn.runAndReadAll(`${sql} ORDER BY 1`)).getRows()
  return rows.map(([id, name]) => ({ id: id as number, name: name as string }))
}

export async function loadTags(conn: DuckDBConnection, source: string): Promise<Tag[]> {
  const rows = (await conn.runAndReadAll(`SELECT tag_id::INTEGER, name, tag_category_id::INTEGER FROM ${source} ORDER BY tag_id`)).getRows()
  return rows.map(([id, name, tagCategoryId]) => ({ id: id as number, name: name as string, tagCategoryId: tagCategoryId as number }))
}

/**
 * A VARCHAR expression of every row, in `dense` order (a 0..N-1 row-number column), as `Texts`; with `nulls`, NULL
 * values are kept apart from ''.
 */
export async function loadTexts(
  conn: DuckDBConnection,
  source: string,
  expression: string,
  dense: string,
  count: number,
  nulls: boolean,
): Promise<Texts> {
  const size = (await conn.runAndReadAll(`SELECT coalesce(sum(strlen(${expression})), 0)::DOUBLE FROM ${source}`)).getRows()[0][0] as number
  const bytes = Buffer.alloc(size)
  let filled = 0
  const offsets = await readUtf8(conn, source, expression, dense, count, (chunk) => {
    bytes.set(chunk, filled)
    filled += chunk.length
  })
  let isNull: Uint8Array | null = null
  if (nulls) {
    const flags = new Uint8Array(count)
    await scan(conn, `SELECT (${expression} IS NULL)::INTEGER FROM ${source} ORDER BY ${dense}`, (chunk, offset) =>
      copyInto(flags, int32Items(chunk.getColumnVector(0)), chunk.rowCount, offset),
    )
    isNull = flags
  }
  return new Texts(offsets, bytes, isNull)
}

export async function loadTweets(conn: DuckDBConnection, source: string): Promise<Tweets> {
  const count = await countRows(conn, source)
  const t = {
    count,
    tweetId: new BigUint64Array(count),
    authorId: new BigUint64Array(count),
    authorIdx: new Int32Array(count),
    createdAtMs: new Float64Array(count),
    favorites: new Uint32Array(count),
    retweets: new Uint32Array(count),
    replies: new Uint32Array(count),
    views: new Uint32Array(count),
  }
  await scan(
    conn,
    `SELECT tweet_id::UBIGINT, author_id::UBIGINT, coalesce(author_idx, -1)::INTEGER, epoch_ms(created_at)::DOUBLE,
            favorites::DOUBLE, retweets::DOUBLE, replies::DOUBLE, views::DOUBLE
     FROM ${source}`,
    (chunk, offset) => {
      const rows = chunk.rowCount
      copyInto(t.tweetId, uint64Items(chunk.getColumnVector(0)), rows, offset)
      copyInto(t.authorId, uint64Items(chunk.getColumnVector(1)), rows, offset)
      copyInto(t.authorIdx, int32Items(chunk.getColumnVector(2)), rows, offset)
      copyInto(t.createdAtMs, float64Items(chunk.getColumnVector(3)), rows, offset)
      copyInto(t.favorites, float64Items(chunk.getColumnVector(4)), rows, offset)
      copyInto(t.retweets, float64Items(chunk.getColumnVector(5)), rows, offset)
      copyInto(t.replies, float64Items(chunk.getColumnVector(6)), rows, offset)
      copyInto(t.views, float64Items(chunk.getColumnVector(7)), rows, offset)
    },
  )
  return { ...t, text: await loadTexts(conn, source, 'text', 'tweet_idx', count, true) }
}

/** At most 12 lists of 1000 rows: plain objects, ready to serialise. */
export async function loadSmartFollows(conn: DuckDBConnection, source: string): Promise<Map<string, SmartFollowsList>> {
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

/** One list per (days, metric); each row lands at its rank. */
export async function loadTrending(conn: DuckDBConnection, source: string): Promise<Map<string, TrendingList>> {
  const lists = new Map<string, TrendingList>()
  const sizes = (await conn.runAndReadAll(`SELECT days::INTEGER, metric, count(*)::INTEGER FROM ${source} GROUP BY ALL`)).getRows()
  for (const [days, metric, rows] of sizes) {
    lists.set(`${days}:${metric}`, {
      accountIdx: new Int32Array(rows as number),
      platformScoreDiff: new Float64Array(rows as number),
      smartFollowersDiff: new Int32Array(rows as number),
    })
  }
  await scan(
    conn,
    `SELECT days::INTEGER, metric, rank::INTEGER - 1, account_idx::INTEGER, platform_score_diff::DOUBLE,
            smart_followers_diff::DOUBLE FROM ${source}`,
    (chunk) => {
      const days = int32Items(chunk.getColumnVector(0))
      const metric = chunk.getColumnVector(1)
      const position = int32Items(chunk.getColumnVector(2))
      const idx = int32Items(chunk.getColumnVector(3))
      const scoreDiff = float64Items(chunk.getColumnVector(4))
      const followersDiff = float64Items(chunk.getColumnVector(5))
      for (let i = 0; i < chunk.rowCount; i++) {
        const list = lists.get(`${days[i]}:${metric.getItem(i)}`)!
        list.accountIdx[position[i]] = idx[i]
        list.platformScoreDiff[position[i]] = scoreDiff[i]
        list.smartFollowersDiff[position[i]] = followersDiff[i]
      }
    },
  )
  return lists
}

/** At most 3 lists of 1000 rows. */
export async function loadTopResearched(conn: DuckDBConnection, source: string): Promise<Map<number, TopResearchedList>> {
  const rows = (await conn.runAndReadAll(`SELECT days::INTEGER, account_idx::INTEGER, lookups::DOUBLE FROM ${source} ORDER BY days, rank`)).getRows()
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
