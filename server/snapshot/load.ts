/**
 * Load one snapshot folder into its serving structures, from its serving columns (`serving/`, written by the build;
 * see serving-files.ts and docs/snapshot.md), once, never mutated and never written: the server only reads a
 * snapshot. The types of the structures are what `loadSnapshot` builds (`Snapshot`).
 *
 * Numbers live in typed arrays indexed by `account_idx`; one-to-many relations are CSR adjacency: the rows of owner
 * `i` are `offsets[i] .. offsets[i + 1] - 1` (offsets: owners + 1 values), in the order the snapshot file was
 * written. Dates are whole days since 1970-01-01 (UTC), timestamps epoch milliseconds. The big per-row arrays use
 * the narrowest type that holds their values (days Uint16 until 2149, counters Uint32). Texts (handles, names,
 * descriptions, tweet texts) are UTF-8 bytes per column (`Texts`), decoded when a row is rendered: the JS heap holds
 * no per-account object, so a full garbage collection has little to walk. The biggest columns a request reads only
 * a few rows of (the daily series, tweet texts, the score's explanations) stay on disk
 * (`DiskColumn`), read by row range per request.
 *
 * @example const snapshot = await loadSnapshot('snapshots/current')
 */
import fs from 'node:fs'
import path from 'node:path'
import { log } from '../../log/logger.ts'
import { mentionsOf } from './mentions.ts'
import { openSeriesParts } from './series-parts.ts'
import { loadTweets } from './tweets.ts'
import { openServingFiles, type Column, type ServingFiles } from './serving-files.ts'

export type Snapshot = Awaited<ReturnType<typeof loadSnapshot>>
export type AccountLabels = Awaited<ReturnType<typeof labels>>
export type Mentions = Snapshot['mentions']
export type TrendingList = Awaited<ReturnType<typeof trendingLists>> extends Map<string, infer L> ? L : never

export interface Reference {
  id: number
  name: string
}

export interface Tag extends Reference {
  tagCategoryId: number
}

/** One ranked list of smart_follows.parquet: its items (the spec's fields, in its order) in rank order and by the
 * two other orders. */
interface SmartFollowsList {
  byRank: object[]
  byScore: object[]
  byFollowers: object[]
}

interface Manifest { snapshot_id: string; build_date: string; built_at?: string }

export async function loadSnapshot(dir: string) {
  const started = Date.now()
  const realDir = fs.realpathSync(dir)
  const manifest = JSON.parse(fs.readFileSync(path.join(realDir, 'manifest.json'), 'utf8')) as Manifest
  const files = openServingFiles(path.join(realDir, 'serving'))
  const { array, disk, reference } = files
  const accounts = await loadAccounts(files)
  const previousUsernames = loadPreviousUsernames(reference.previous_usernames, accounts.count)
  const categories = reference.categories as unknown as Reference[]
  const tagRows = reference.tags as { id: number; name: string; tag_category_id: number }[]
  const tags: Tag[] = tagRows.map(({ id, name, tag_category_id }) => ({ id, name, tagCategoryId: tag_category_id }))
  const offsets = (table: string) => array(`${table}.offsets`, 'i32')
  const loaded = await loadTweets(realDir)
  const { mentioned: _, ...tweets } = loaded
  const snapshot = {
    id: manifest.snapshot_id,
    /** build_date, YYYY-MM-DD */
    date: manifest.build_date,
    dir: realDir,
    /** When the build made it (epoch ms; NaN when the manifest does not say). */
    builtAt: Date.parse(manifest.built_at ?? ''),
    loadedAt: new Date(),
    loadMs: 0,
    accounts,
    /**
     * Every lower-case handle, sorted by its UTF-8 bytes, and the account it resolves to (the build's rule: a current
     * username, else a slug, else a previous username; a tracked account wins a handle shared with a friend-only one).
     */
    handles: { key: await files.texts('handles.key', 'memory'), accountIdx: await array('handles.account_idx', 'i32') },
    previousUsernames,
    categories,
    categoryById: new Map(categories.map((c) => [c.id, c])),
    tagCategories: reference.tag_categories as unknown as Reference[],
    tags,
    tagById: new Map(tags.map((t) => [t.id, t])),
    accountCategories: await labels(files, 'account_categories'),
    accountTags: await labels(files, 'account_tags'),
    /** smart_followers.parquet grouped by target: rows in `by=score desc` order. */
    smartFollowers: {
      offsets: await offsets('smart_followers'),
      followerIdx: await array('smart_followers.follower_idx', 'i32'),
      subscribedAtMs: await array('smart_followers.subscribed_at_ms', 'f64'),
      /**
       * The other two orders (follower count desc, subscription desc): the row at position p of target t is
       * `byFollowers[offsets[t] + p]` (for `score`, the position is the row).
       */
      byFollowers: await array('smart_followers.by_followers', 'i32'),
      bySubscribed: await array('smart_followers.by_subscribed', 'i32'),
      /**
       * Each row's follower (read as one range per target by get_followers_score_sum): its score and its label ids as
       * bit masks, categories 0..30 and tags 0..31 / 32..62; bit 31 of `categories` and of `tagsHigh`
       * (`OTHER_LABELS`) marks a follower with an id outside them, checked on its labels instead.
       */
      followerScore: disk('smart_followers.follower_score', 'f64'),
      followerLabels: {
        categories: disk('smart_followers.follower_categories', 'u32'),
        tagsLow: disk('smart_followers.follower_tags_low', 'u32'),
        tagsHigh: disk('smart_followers.follower_tags_high', 'u32'),
      },
    },
    /** categorized_followers_count.parquet grouped by target, rows in list order. */
    categorizedCounts: {
      offsets: await offsets('categorized_followers_count'),
      /** -1 for the `All` entry (id null), 0 for `NoCategory`; names come from the category table. */
      categoryId: await array('categorized_followers_count.category_id', 'i16'),
      cnt: await array('categorized_followers_count.cnt', 'u32'),
    },
    /** followers_count_history's parts, newest first; the monitored accounts' series are answered. */
    followersCountHistory: await openSeriesParts(realDir, 'followers_count_history', { followers_count: 'u32' }, accounts.numericId, accounts.isMonitored),
    /** friendship_followed.parquet grouped by target, in file order (event_date desc, follower_id asc, action). */
    friendshipFollowed: {
      offsets: await offsets('friendship_followed'),
      followerIdx: await array('friendship_followed.follower_idx', 'i32'),
      /** 1 = Followed, 0 = Unfollowed */
      followed: await array('friendship_followed.followed', 'u8'),
      day: await array('friendship_followed.day', 'i32'),
    },
    /** friendship_following.parquet grouped by source, in file order (action, followed id as string, event_date desc). */
    friendshipFollowing: {
      offsets: await offsets('friendship_following'),
      followedIdx: await array('friendship_following.followed_idx', 'i32'),
      /** 1 = Following, 0 = Unfollowing */
      following: await array('friendship_following.following', 'u8'),
      day: await array('friendship_following.day', 'i32'),
      /** main score, or graph score when the main one is 0 */
      platformScore: await array('friendship_following.platform_score', 'f64'),
    },
    /** key `${days}:${bucket}` (days 1|7|30, bucket all|vc|inf|angels) */
    smartFollows: smartFollowsLists(reference.smart_follows),
    /** the tweets parts: row = tweet_idx (created_at desc, tweet_id desc) */
    tweets,
    /** the mentions of each account (the `mentions` view) */
    mentions: mentionsOf(loaded, accounts.count, () => true),
    /**
     * score_history's parts, newest first: a row per scored date on which an account's score changed; its score on a
     * scored date is its last row on or before it (queries/daily-series.ts), none after a row that `ended` it (a score
     * of 0). Every account's series is answered.
     */
    scoreHistory: {
      changes: await openSeriesParts(realDir, 'score_history', { platform_score: 'f64' }, accounts.numericId, new Uint8Array(accounts.count).fill(1), ['ended']),
      /** score_dates.parquet: the scored dates, newest first */
      dates: await array('score_dates.day', 'u16'),
      /** each account's ranks on the build date and the days before it, newest first (0: none that day) */
      ranks: disk('score_ranks.by_account', 'i32'),
    },
    /** The score's explanation files, each grouped by account. */
    scoreExplanations: {
      /**
       * score_explanations.parquet: per account, the values of EXPLANATION_COMPONENTS (pipeline/serving-columns.ts)
       * back to back (NaN for NULL): account i's are rows i·n .. i·n+n-1.
       */
      components: disk('score_explanations.components', 'f64'),
      /** score_contributors.parquet: the weightiest followers, biggest share first. */
      contributors: {
        offsets: await offsets('score_contributors'),
        followerIdx: disk('score_contributors.follower_idx', 'i32'),
        points: disk('score_contributors.points', 'f64'),
        share: disk('score_contributors.share', 'f64'),
        followerIsSeed: disk('score_contributors.follower_is_seed', 'u8'),
        reciprocal: disk('score_contributors.reciprocal', 'u8'),
      },
      /** score_changes.parquet: per account, its 7-day rows then its 30-day rows, each by |points| desc. */
      changes: {
        offsets: await offsets('score_changes'),
        days: disk('score_changes.days', 'u8'),
        change: disk('score_changes.change', 'u8'),
        followerIdx: disk('score_changes.follower_idx', 'i32'),
        followerIsSeed: disk('score_changes.follower_is_seed', 'u8'),
        points: disk('score_changes.points', 'f64'),
      },
    },
    /** key `${days}:${metric}` (days 1|7|30, metric smart_followers|score); a missing key is an empty list */
    trending: await trendingLists(files),
    /** key days (1|7|30); a missing key is an empty list */
    topResearched: topResearchedLists(reference.top_researched),
    /** the mentions whose author is smart (the `smart_mentions` view) */
    smartMentions: mentionsOf(loaded, accounts.count, (author) => author >= 0 && accounts.isSmart[author] === 1),
  }
  snapshot.loadMs = Date.now() - started
  log.info('snapshot.loaded', { snapshot_id: snapshot.id, accounts: accounts.count, ms: snapshot.loadMs })
  return snapshot
}

async function loadAccounts({ array, texts }: ServingFiles) {
  const numericId = await array('accounts.numeric_id', 'u64')
  const byScore = await array('accounts.by_score', 'i32')
  const byFollowers = await array('accounts.by_followers', 'i32')
  return {
    /** The tracked accounts by score and by follower count, descending (ties by account_idx). */
    byScore,
    byFollowers,
    /** Each account's place in `byScore` / `byFollowers` (-1 for friend-only records). */
    scorePlace: places(byScore, numericId.length),
    followersPlace: places(byFollowers, numericId.length),
    count: numericId.length,
    /** The decimal id (ids exceed 2^53), made from `numericId` when rendered. */
    platformId: { length: numericId.length, at: (idx: number) => numericId[idx].toString() } as Column<string>,
    /** The ids as numbers, ascending (= account_idx order: an id is found by binary search). */
    numericId,
    // never NULL (the build's audits)
    username: await texts('accounts.username', 'memory') as Column<string>,
    /** null for friend-only records */
    slug: await texts('accounts.slug', 'memory'),
    name: await texts('accounts.name', 'memory'),
    /** '' for none: `at` never answers null. */
    description: await texts('accounts.description', 'memory'),
    /** null for none. */
    profileImage: await texts('accounts.profile_image', 'memory'),
    blueVerified: await array('accounts.blue_verified', 'u8'),
    isTracked: await array('accounts.is_tracked', 'u8'),
    isMonitored: await array('accounts.is_monitored', 'u8'),
    isSmart: await array('accounts.is_smart', 'u8'),
    platformScore: await array('accounts.platform_score', 'f64'),
    /** NaN when the account has no friend record. */
    graphScore: await array('accounts.graph_score', 'f64'),
    followersCount: await array('accounts.followers_count', 'f64'),
    smartFollowersCount: await array('accounts.smart_followers_count', 'i32'),
    /** 1 = highest score among tracked accounts; 0 for friend-only records (rank NULL). */
    rank: await array('accounts.rank', 'i32'),
  }
}

/** Each account's place in `order` (-1 when absent). */
function places(order: Int32Array, count: number): Int32Array {
  const place = new Int32Array(count).fill(-1)
  for (let p = 0; p < order.length; p++) place[order[p]] = p
  return place
}

/** previous_usernames.parquet grouped by account: old handles, oldest change first. */
function loadPreviousUsernames(rows: Record<string, unknown>[], owners: number) {
  const offsets = new Int32Array(owners + 1)
  for (const row of rows) offsets[(row.account_idx as number) + 1]++
  for (let i = 1; i <= owners; i++) offsets[i] += offsets[i - 1]
  return { offsets, username: rows.map((row) => row.username as string) }
}

/** Tags or categories by account, with ids 0..31 as a bit mask (membership in O(1) for filters over many rows). */
async function labels({ array }: ServingFiles, table: string) {
  const offsets = await array(`${table}.offsets`, 'i32')
  const ids = await array(`${table}.id`, 'i32')
  const mask = new Uint32Array(offsets.length - 1)
  for (let idx = 0; idx < mask.length; idx++) {
    for (let r = offsets[idx]; r < offsets[idx + 1]; r++) if (ids[r] >= 0 && ids[r] < 32) mask[idx] |= 1 << ids[r]
  }
  return { offsets, ids, mask }
}

/** At most 12 lists of 1000 rows: plain objects, ready to serialise. */
function smartFollowsLists(rows: Record<string, unknown>[]): Map<string, SmartFollowsList> {
  const lists = new Map<string, SmartFollowsList>()
  for (const row of rows) {
    const key = `${row.days}:${row.bucket}`
    let list = lists.get(key)
    if (!list) lists.set(key, (list = { byRank: [], byScore: [], byFollowers: [] }))
    // the stored new_alpha_followers is not one of the spec's fields
    const { days: _d, bucket: _b, pos_by_score, pos_by_followers, new_alpha_followers: _n, top_alpha_followers, ...fields } = row
    const item = {
      ...fields,
      top_alpha_followers: ((top_alpha_followers ?? []) as Record<string, unknown>[]).map((f) => ({
        name: f.name ?? '',
        username: f.username ?? '',
        image: f.image ?? '',
        score: f.score ?? 0,
        verified: Boolean(f.verified),
      })),
    }
    list.byRank.push(item)
    list.byScore[pos_by_score as number] = item
    list.byFollowers[pos_by_followers as number] = item
  }
  return lists
}

/** One list per (days, metric), rows in rank order (the columns come sorted by days, metric, rank). */
async function trendingLists({ array }: ServingFiles) {
  const days = await array('trending.days', 'i32')
  const byScore = await array('trending.by_score', 'u8')
  const accountIdx = await array('trending.account_idx', 'i32')
  const scoreDiff = await array('trending.platform_score_diff', 'f64')
  const followersDiff = await array('trending.smart_followers_diff', 'i32')
  const lists = new Map<string, { accountIdx: Int32Array; platformScoreDiff: Float64Array; smartFollowersDiff: Int32Array }>()
  for (let start = 0; start < days.length; ) {
    let end = start
    while (end < days.length && days[end] === days[start] && byScore[end] === byScore[start]) end++
    lists.set(`${days[start]}:${byScore[start] ? 'score' : 'smart_followers'}`, {
      accountIdx: accountIdx.subarray(start, end),
      platformScoreDiff: scoreDiff.subarray(start, end),
      smartFollowersDiff: followersDiff.subarray(start, end),
    })
    start = end
  }
  return lists
}

/** At most 3 lists of 1000 rows. */
function topResearchedLists(rows: Record<string, unknown>[]) {
  const lists = new Map<number, { accountIdx: Int32Array; lookups: Float64Array }>()
  for (const days of new Set(rows.map((row) => row.days as number))) {
    const list = rows.filter((row) => row.days === days)
    lists.set(days, {
      accountIdx: Int32Array.from(list, (row) => row.account_idx as number),
      lookups: Float64Array.from(list, (row) => row.lookups as number),
    })
  }
  return lists
}
