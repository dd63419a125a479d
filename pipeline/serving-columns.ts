/**
 * The serving columns of a snapshot (docs/snapshot.md, "serving/"): the marts the API answers from, as plain arrays
 * the server reads as they are, with no decoding. Read from the build's mart tables, as their Parquet files are (the
 * two are written side by side, each in the tables' stored order), into the snapshot's temp folder before it is
 * published; never changed afterwards.
 *
 * Layout of `serving/` (the folder's format: pipeline/serving-writer.ts):
 * - Rows of a table follow its Parquet file's order (the mart's stored order). A table grouped by an owner
 *   (`account_idx`, `target_idx`, `source_idx`) has `<table>.offsets` (i32, owners + 1 values): the owner o's rows are
 *   offsets[o] .. offsets[o+1]-1.
 * - A text column is three columns (writeText in pipeline/serving-writer.ts).
 * - `reference.json`: the small tables (categories, tag categories, tags, previous usernames, the smart-follows
 *   lists, the top-researched lists) as JSON.
 *
 * @example await writeServingColumns(conn, '/snapshots/.tmp-2026-11-22_010203-abcdef')
 */
import path from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { log } from '../log/logger.ts'
import { chunks, items, SERVING_ARRAYS, ServingWriter, sqlDay, writeColumns, writeText, type ColumnType } from './serving-writer.ts'
import { RANK_HISTORY_DAYS } from './state.ts'

/**
 * The columns of score_explanations.parquet the server reads, in the order of `score_explanations.components`: one
 * f64 per column and account, an account's values back to back (row-major: one read answers an account), NULL as
 * NaN.
 */
export const EXPLANATION_COMPONENTS = [
  'audience', 'size_followers', 'size_divisor',
  'smart_followers', 'trusted_followers', 'saturated_followers', 'reciprocal_followers', 'seed_followers',
  'seed_share', 'top_follower_share', 'top3_share', 'is_seed', 'seed_standing', 'seed_endowment',
  'score_7d_ago', 'score_change_7d', 'arrived_7d', 'left_7d', 'trusted_7d', 'untrusted_7d',
  'arrived_points_7d', 'left_points_7d', 'trusted_points_7d', 'untrusted_points_7d', 'other_points_7d',
  'score_30d_ago', 'score_change_30d', 'arrived_30d', 'left_30d', 'trusted_30d', 'untrusted_30d',
  'arrived_points_30d', 'left_points_30d', 'trusted_points_30d', 'untrusted_points_30d', 'other_points_30d',
] as const

/** The kinds of change of score_changes.parquet, in the order of their code in `score_changes.change`. */
export const SCORE_CHANGE_KINDS = ['arrived', 'left', 'trusted', 'untrusted'] as const

/** `<table>.offsets` of a mart grouped by `owner` (sorted ascending in it), `owners` + 1 values. */
async function writeOffsets(conn: DuckDBConnection, out: ServingWriter, table: string, owner: string, owners: number): Promise<Int32Array> {
  const offsets = new Int32Array(owners + 1)
  for await (const chunk of chunks(conn, `SELECT ${owner}::INTEGER, count(*)::INTEGER FROM ${table} GROUP BY 1`)) {
    const [owned, counts] = [0, 1].map((c) => (items(chunk.getColumnVector(c)) as Int32Array).subarray(0, chunk.rowCount))
    owned.forEach((o, i) => (offsets[o + 1] = counts[i]))
  }
  for (let i = 1; i <= owners; i++) offsets[i] += offsets[i - 1]
  out.appendBytes(`${table}.offsets`, 'i32', offsets)
  return offsets
}

/** `score_explanations.components`: the EXPLANATION_COMPONENTS of each account (one row per account, in order). */
async function writeExplanationComponents(conn: DuckDBConnection, out: ServingWriter, source: string): Promise<void> {
  const width = EXPLANATION_COMPONENTS.length
  const select = EXPLANATION_COMPONENTS.map((c) => `coalesce(${c}::DOUBLE, 'NaN'::DOUBLE)`).join(', ')
  for await (const chunk of chunks(conn, `SELECT ${select} FROM ${source} ORDER BY account_idx`)) {
    const count = chunk.rowCount
    const rows = new Float64Array(count * width)
    for (let c = 0; c < width; c++) {
      const values = items(chunk.getColumnVector(c))
      for (let r = 0; r < count; r++) rows[r * width + c] = Number(values[r])
    }
    out.appendBytes('score_explanations.components', 'f64', rows)
  }
}

/** smart_followers' columns of each follower's label masks, in the order labelMasks returns them. */
const FOLLOWER_MASKS = ['follower_categories', 'follower_tags_low', 'follower_tags_high']

/**
 * Each account's label ids as three bit masks (u32): categories 0..30, tags 0..31 and 32..62; bit 31 of the first
 * and the last marks an account with an id outside those ranges.
 */
async function labelMasks(conn: DuckDBConnection, owners: number): Promise<Uint32Array[]> {
  const masks = FOLLOWER_MASKS.map(() => new Uint32Array(owners))
  const perAccount = chunks(conn, `SELECT account_idx::INTEGER,
       bit_or(CASE WHEN kind = 'c' AND id BETWEEN 0 AND 30 THEN 1::BIGINT << id WHEN kind = 'c' THEN ${2 ** 31} ELSE 0 END)::DOUBLE,
       bit_or(CASE WHEN kind = 't' AND id BETWEEN 0 AND 31 THEN 1::BIGINT << id ELSE 0 END)::DOUBLE,
       bit_or(CASE WHEN kind = 't' AND id BETWEEN 32 AND 62 THEN 1::BIGINT << (id - 32) WHEN kind = 't' AND id NOT BETWEEN 0 AND 62 THEN ${2 ** 31} ELSE 0 END)::DOUBLE
     FROM (SELECT account_idx, category_id AS id, 'c' AS kind FROM account_categories
           UNION ALL SELECT account_idx, tag_id, 't' FROM account_tags)
     GROUP BY account_idx`)
  for await (const chunk of perAccount) {
    const accounts = (items(chunk.getColumnVector(0)) as Int32Array).subarray(0, chunk.rowCount)
    masks.forEach((mask, m) => {
      const values = items(chunk.getColumnVector(m + 1)) as Float64Array
      accounts.forEach((account, i) => (mask[account] = values[i]))
    })
  }
  return masks
}

/**
 * smart_followers' columns, from one read of the mart in its stored order (by target, then score):
 * `follower_idx` (i32), `subscribed_at_ms` and `follower_score` (f64); each row's follower's label masks
 * (FOLLOWER_MASKS, u32: made per account, then read by each row's follower, no join or sort of the rows); and the
 * rows in the other two orders, `by_followers` and `by_subscribed` (i32): `<order>[offsets[t] + p]` is the row at
 * position p of target t (the mart gives each row's positions in them, `pos_by_followers` and `pos_by_subscribed`).
 */
async function writeSmartFollowers(conn: DuckDBConnection, out: ServingWriter, owners: number): Promise<void> {
  const offsets = await writeOffsets(conn, out, 'smart_followers', 'target_idx', owners)
  const masks = await labelMasks(conn, owners)
  const orders = [new Int32Array(offsets[owners]), new Int32Array(offsets[owners])]
  const column = (name: string) => `smart_followers.${name}`
  // every column exists, an empty mart's too
  for (const [name, type] of [['follower_idx', 'i32'], ['subscribed_at_ms', 'f64'], ['follower_score', 'f64']] as const) {
    out.appendBytes(column(name), type, new SERVING_ARRAYS[type](0))
  }
  for (const name of FOLLOWER_MASKS) out.appendBytes(column(name), 'u32', new Uint32Array(0))
  let row = 0
  const rows = chunks(conn, `SELECT follower_idx::INTEGER, epoch_ms(subscribed_at)::DOUBLE, follower_score::DOUBLE,
       target_idx::INTEGER, pos_by_followers::INTEGER, pos_by_subscribed::INTEGER FROM smart_followers`)
  for await (const chunk of rows) {
    const vector = (c: number) => items(chunk.getColumnVector(c)).subarray(0, chunk.rowCount)
    const followers = vector(0) as Int32Array
    out.append(column('follower_idx'), 'i32', followers)
    out.append(column('subscribed_at_ms'), 'f64', vector(1))
    out.append(column('follower_score'), 'f64', vector(2))
    masks.forEach((mask, m) => {
      const values = new Uint32Array(followers.length)
      for (let i = 0; i < followers.length; i++) values[i] = mask[followers[i]]
      out.appendBytes(column(FOLLOWER_MASKS[m]), 'u32', values)
    })
    const [targets, byFollowers, bySubscribed] = [3, 4, 5].map((c) => vector(c) as Int32Array)
    for (let i = 0; i < targets.length; i++) {
      orders[0][offsets[targets[i]] + byFollowers[i]] = row + i
      orders[1][offsets[targets[i]] + bySubscribed[i]] = row + i
    }
    row += targets.length
  }
  out.appendBytes(column('by_followers'), 'i32', orders[0])
  out.appendBytes(column('by_subscribed'), 'i32', orders[1])
}

/**
 * `score_ranks.by_account`: each account's ranks on the build date and the RANK_HISTORY_DAYS - 1 days before it,
 * newest first (0: none that day): account i's are values i·n .. i·n+n-1, read with one request. Filled in place from
 * the window's ranks (int_score_ranks), each put at its account and day.
 */
async function writeRanks(conn: DuckDBConnection, out: ServingWriter, owners: number): Promise<void> {
  const ranks = new Int32Array(owners * RANK_HISTORY_DAYS)
  const dated = chunks(
    conn,
    `SELECT a.account_idx::INTEGER, (getvariable('build_date') - r.score_date)::INTEGER, r.rank::INTEGER
     FROM int_score_ranks r JOIN int_accounts a ON a.platform_id = r.platform_id`,
  )
  for await (const chunk of dated) {
    const [accounts, backs, values] = [0, 1, 2].map((c) => (items(chunk.getColumnVector(c)) as Int32Array).subarray(0, chunk.rowCount))
    for (let i = 0; i < accounts.length; i++) ranks[accounts[i] * RANK_HISTORY_DAYS + backs[i]] = values[i]
  }
  out.appendBytes('score_ranks.by_account', 'i32', ranks)
}

/** The serving columns of the marts in `conn`'s database, into `dir/serving` (`dir`: the snapshot's temp folder). */
export async function writeServingColumns(conn: DuckDBConnection, dir: string): Promise<void> {
  const started = Date.now()
  const out = new ServingWriter(path.join(dir, 'serving'))
  try {
    await writeAll(conn, out)
  } finally {
    out.close()
  }
  log.info('build.step', { step: 'serving_columns', layer: 'publish', rows: Object.keys(out.columns).length, ms: Date.now() - started })
}

async function writeAll(conn: DuckDBConnection, out: ServingWriter): Promise<void> {
  const owners = (await conn.runAndReadAll(`SELECT count(*)::INTEGER FROM accounts`)).getRows()[0][0] as number

  await writeColumns(conn, out, 'accounts', {
    'accounts.numeric_id': ['u64', 'platform_id::UBIGINT'],
    'accounts.blue_verified': ['u8', 'blue_verified::INTEGER'],
    'accounts.is_tracked': ['u8', 'is_tracked::INTEGER'],
    'accounts.is_monitored': ['u8', 'is_monitored::INTEGER'],
    'accounts.is_smart': ['u8', 'is_smart::INTEGER'],
    'accounts.platform_score': ['f64', 'platform_score::DOUBLE'],
    'accounts.graph_score': ['f64', "coalesce(graph_score, 'NaN'::DOUBLE)::DOUBLE"],
    'accounts.followers_count': ['f64', 'followers_count::DOUBLE'],
    'accounts.smart_followers_count': ['i32', 'smart_followers_count::INTEGER'],
    'accounts.rank': ['i32', 'coalesce(rank, 0)::INTEGER'],
  }, 'ORDER BY account_idx')
  // the tracked accounts by score and by follower count (descending, ties by id)
  for (const [name, column] of [['by_score', 'platform_score'], ['by_followers', 'followers_count']]) {
    await writeColumns(conn, out, `(SELECT account_idx FROM accounts WHERE is_tracked ORDER BY ${column} DESC, account_idx)`, {
      [`accounts.${name}`]: ['i32', 'account_idx::INTEGER'],
    })
  }
  await writeText(conn, out, 'accounts.username', 'accounts', 'username', 'account_idx', false)
  await writeText(conn, out, 'accounts.slug', 'accounts', 'slug', 'account_idx', true)
  await writeText(conn, out, 'accounts.name', 'accounts', 'name', 'account_idx', true)
  await writeText(conn, out, 'accounts.description', 'accounts', "coalesce(description, '')", 'account_idx', false)
  await writeText(conn, out, 'accounts.profile_image', 'accounts', 'profile_image', 'account_idx', true)

  // every lower-case handle and its account, sorted by the handle's bytes: a current username, else a slug, else a
  // previous username (its most recent owner; the latest account on a tie); a tracked account wins a username or
  // slug shared with a friend-only record (then the lowest account_idx)
  // (chosen once, read by three queries)
  await conn.run(`CREATE OR REPLACE TEMP TABLE serving_handles AS
     SELECT key, account_idx, row_number() OVER (ORDER BY key) - 1 AS dense FROM (
       SELECT key, account_idx, row_number() OVER (PARTITION BY key ORDER BY kind DESC, preference DESC, tiebreak) AS choice
       FROM (SELECT lower(username) AS key, account_idx, 3 AS kind, is_tracked::INTEGER AS preference, account_idx AS tiebreak FROM accounts
             UNION ALL SELECT lower(slug), account_idx, 2, is_tracked::INTEGER, account_idx FROM accounts WHERE slug <> ''
             UNION ALL SELECT lower(username), account_idx, 1, ${sqlDay('changed_at')}, -account_idx FROM previous_usernames)
       WHERE key <> '')
     WHERE choice = 1`)
  try {
    await writeText(conn, out, 'handles.key', 'serving_handles', 'key', 'dense', false)
    await writeColumns(conn, out, 'serving_handles', { 'handles.account_idx': ['i32', 'account_idx::INTEGER'] }, 'ORDER BY dense')
  } finally {
    await conn.run('DROP TABLE serving_handles')
  }

  for (const [table, id] of [['account_categories', 'category_id'], ['account_tags', 'tag_id']]) {
    await writeOffsets(conn, out, table, 'account_idx', owners)
    await writeColumns(conn, out, table, { [`${table}.id`]: ['i32', `${id}::INTEGER`] })
  }

  await writeSmartFollowers(conn, out, owners)
  /** The other marts grouped by an owner: the owner column and the columns. */
  const grouped: [string, string, Record<string, [ColumnType, string]>][] = [
    ['categorized_followers_count', 'target_idx', { category_id: ['i16', 'coalesce(category_id, -1)::INTEGER'], cnt: ['u32', 'cnt::DOUBLE'] }],
    ['friendship_followed', 'target_idx', { follower_idx: ['i32', 'follower_idx::INTEGER'], followed: ['u8', "(action = 'Followed')::INTEGER"], day: ['i32', sqlDay('event_date')] }],
    [
      'friendship_following',
      'source_idx',
      { followed_idx: ['i32', 'followed_idx::INTEGER'], following: ['u8', "(action = 'Following')::INTEGER"], day: ['i32', sqlDay('event_date')], platform_score: ['f64', 'platform_score::DOUBLE'] },
    ],
    [
      'score_contributors',
      'account_idx',
      {
        follower_idx: ['i32', 'follower_idx::INTEGER'],
        points: ['f64', 'points::DOUBLE'],
        share: ['f64', 'share::DOUBLE'],
        follower_is_seed: ['u8', 'follower_is_seed::INTEGER'],
        reciprocal: ['u8', 'reciprocal::INTEGER'],
      },
    ],
    [
      'score_changes',
      'account_idx',
      {
        days: ['u8', 'days::INTEGER'],
        change: ['u8', `(list_position(['${SCORE_CHANGE_KINDS.join("', '")}'], change) - 1)::INTEGER`],
        follower_idx: ['i32', 'follower_idx::INTEGER'],
        follower_is_seed: ['u8', 'follower_is_seed::INTEGER'],
        points: ['f64', 'points::DOUBLE'],
      },
    ],
  ]
  for (const [table, owner, columns] of grouped) {
    await writeOffsets(conn, out, table, owner, owners)
    await writeColumns(conn, out, table, Object.fromEntries(Object.entries(columns).map(([name, column]) => [`${table}.${name}`, column])))
  }

  // the scored dates the score history's sparse rows are read over, newest first
  await writeColumns(conn, out, 'score_dates', { 'score_dates.day': ['u16', sqlDay('date')] }, 'ORDER BY date DESC')
  await writeRanks(conn, out, owners)

  await writeExplanationComponents(conn, out, 'score_explanations')

  // trending: every list's rows by (days, metric, rank)
  await writeColumns(conn, out, 'trending', {
    'trending.days': ['i32', 'days::INTEGER'],
    'trending.by_score': ['u8', "(metric = 'score')::INTEGER"],
    'trending.account_idx': ['i32', 'account_idx::INTEGER'],
    'trending.platform_score_diff': ['f64', 'platform_score_diff::DOUBLE'],
    'trending.smart_followers_diff': ['i32', 'smart_followers_diff::INTEGER'],
  }, 'ORDER BY days, metric, rank')

  const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson()
  out.finish({
    categories: await rows(`SELECT category_id::INTEGER AS id, name FROM categories ORDER BY 1`),
    tag_categories: await rows(`SELECT tag_category_id::INTEGER AS id, name FROM tag_categories ORDER BY 1`),
    tags: await rows(`SELECT tag_id::INTEGER AS id, name, tag_category_id::INTEGER AS tag_category_id FROM tags ORDER BY 1`),
    smart_follows: await rows(
      `SELECT days::INTEGER AS days, bucket, pos_by_score::INTEGER AS pos_by_score, pos_by_followers::INTEGER AS pos_by_followers,
              platform_id::VARCHAR AS platform_id, username, name, description, profile_url, profile_image, blue_verified,
              platform_score::DOUBLE AS platform_score, platform_score_diff::DOUBLE AS platform_score_diff,
              current_followers::DOUBLE AS current_followers, followers_diff::DOUBLE AS followers_diff,
              total_alpha_followers::DOUBLE AS total_alpha_followers, new_alpha_followers::DOUBLE AS new_alpha_followers,
              new_alpha_followers_diff::DOUBLE AS new_alpha_followers_diff, top_alpha_followers
       FROM smart_follows ORDER BY days, bucket, rank_alpha`,
    ),
    // old handles in stored order: by account, then change date and username
    previous_usernames: await rows(
      `SELECT account_idx::INTEGER AS account_idx, username FROM previous_usernames`,
    ),
    top_researched: await rows(`SELECT days::INTEGER AS days, account_idx::INTEGER AS account_idx, lookups::DOUBLE AS lookups FROM top_researched ORDER BY days, rank`),
  })
}
