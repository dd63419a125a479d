/**
 * Load one snapshot folder into the serving structures of `types.ts`, from its serving columns (`serving/`, written
 * by the build; see serving-files.ts): plain arrays read as they are, nothing decoded but the accounts' short
 * strings. The server never writes into a snapshot.
 *
 * @example const snapshot = await loadSnapshot('snapshots/current')
 */
import fs from 'node:fs'
import path from 'node:path'
import { log } from '../../log/logger.ts'
import { openServingFiles, type Column, type ServingFiles } from './serving-files.ts'
import type {
  Accounts,
  AccountLabels,
  Mentions,
  PreviousUsernames,
  Reference,
  SmartFollowsItem,
  SmartFollowsList,
  Snapshot,
  Tag,
  TopResearchedList,
  TrendingList,
} from './types.ts'

interface Manifest {
  snapshot_id: string
  build_date: string
}

export async function loadSnapshot(dir: string): Promise<Snapshot> {
  const started = Date.now()
  const realDir = fs.realpathSync(dir)
  const manifest = JSON.parse(fs.readFileSync(path.join(realDir, 'manifest.json'), 'utf8')) as Manifest
  const files = openServingFiles(realDir)
  const { array, disk, reference } = files
  const accounts = loadAccounts(files)
  const previousUsernames = loadPreviousUsernames(reference.previous_usernames, accounts.count)
  const categories = reference.categories as unknown as Reference[]
  const tags = (reference.tags as { id: number; name: string; tag_category_id: number }[]).map(({ id, name, tag_category_id }) => ({
    id,
    name,
    tagCategoryId: tag_category_id,
  })) as Tag[]
  const offsets = (table: string) => array(`${table}.offsets`, 'i32')
  const mentions = (table: string): Mentions => ({
    offsets: offsets(table),
    tweetIdx: array(`${table}.tweet_idx`, 'i32'),
    epochSeconds: array(`${table}.epoch_s`, 'u32'),
    authorIdx: array(`${table}.author_idx`, 'i32'),
    newerSameAuthor: array(`${table}.newer_same_author`, 'i32'),
  })
  const snapshot: Snapshot = {
    id: manifest.snapshot_id,
    date: manifest.build_date,
    dir: realDir,
    loadedAt: new Date(),
    loadMs: 0,
    accounts,
    handles: { key: files.texts('handles.key', 'memory'), accountIdx: array('handles.account_idx', 'i32') },
    previousUsernames,
    categories,
    categoryById: new Map(categories.map((c) => [c.id, c])),
    tagCategories: reference.tag_categories as unknown as Reference[],
    tags,
    tagById: new Map(tags.map((t) => [t.id, t])),
    accountCategories: labels(files, 'account_categories'),
    accountTags: labels(files, 'account_tags'),
    smartFollowers: {
      offsets: offsets('smart_followers'),
      followerIdx: array('smart_followers.follower_idx', 'i32'),
      subscribedAtMs: disk('smart_followers.subscribed_at_ms', 'f64'),
      byFollowers: array('smart_followers.by_followers', 'i32'),
      bySubscribed: array('smart_followers.by_subscribed', 'i32'),
      followerScore: disk('smart_followers.follower_score', 'f64'),
      followerLabels: {
        categories: disk('smart_followers.follower_categories', 'u32'),
        tagsLow: disk('smart_followers.follower_tags_low', 'u32'),
        tagsHigh: disk('smart_followers.follower_tags_high', 'u32'),
      },
    },
    categorizedCounts: {
      offsets: offsets('categorized_followers_count'),
      categoryId: array('categorized_followers_count.category_id', 'i16'),
      cnt: array('categorized_followers_count.cnt', 'u32'),
    },
    followersCountHistory: {
      offsets: offsets('followers_count_history'),
      day: disk('followers_count_history.day', 'u16'),
      followersCount: disk('followers_count_history.followers_count', 'u32'),
    },
    friendshipFollowed: {
      offsets: offsets('friendship_followed'),
      followerIdx: array('friendship_followed.follower_idx', 'i32'),
      followed: array('friendship_followed.followed', 'u8'),
      day: array('friendship_followed.day', 'i32'),
    },
    friendshipFollowing: {
      offsets: offsets('friendship_following'),
      followedIdx: array('friendship_following.followed_idx', 'i32'),
      following: array('friendship_following.following', 'u8'),
      day: array('friendship_following.day', 'i32'),
      platformScore: array('friendship_following.platform_score', 'f64'),
    },
    smartFollows: smartFollowsLists(reference.smart_follows),
    tweets: {
      count: array('tweets.tweet_id', 'u64').length,
      tweetId: array('tweets.tweet_id', 'u64'),
      authorId: array('tweets.author_id', 'u64'),
      authorIdx: array('tweets.author_idx', 'i32'),
      createdAtMs: array('tweets.created_at_ms', 'f64'),
      text: files.texts('tweets.text', 'disk'),
      favorites: array('tweets.favorites', 'u32'),
      retweets: array('tweets.retweets', 'u32'),
      replies: array('tweets.replies', 'u32'),
      views: array('tweets.views', 'u32'),
    },
    mentions: mentions('mentions'),
    scoreHistory: {
      offsets: offsets('score_history'),
      day: disk('score_history.day', 'u16'),
      platformScore: disk('score_history.platform_score', 'f64'),
      rank: disk('score_history.rank', 'i32'),
    },
    scoreExplanations: {
      components: disk('score_explanations.components', 'f64'),
      contributors: {
        offsets: offsets('score_contributors'),
        followerIdx: disk('score_contributors.follower_idx', 'i32'),
        points: disk('score_contributors.points', 'f64'),
        share: disk('score_contributors.share', 'f64'),
        followerIsSeed: disk('score_contributors.follower_is_seed', 'u8'),
        reciprocal: disk('score_contributors.reciprocal', 'u8'),
      },
      changes: {
        offsets: offsets('score_changes'),
        days: disk('score_changes.days', 'u8'),
        arrived: disk('score_changes.arrived', 'u8'),
        followerIdx: disk('score_changes.follower_idx', 'i32'),
        followerIsSeed: disk('score_changes.follower_is_seed', 'u8'),
        points: disk('score_changes.points', 'f64'),
      },
    },
    trending: trendingLists(files),
    topResearched: topResearchedLists(reference.top_researched),
    smartMentions: mentions('smart_mentions'),
  }
  snapshot.loadMs = Date.now() - started
  log.info('snapshot.loaded', { snapshot_id: snapshot.id, accounts: accounts.count, ms: snapshot.loadMs })
  return snapshot
}

function loadAccounts({ array, texts }: ServingFiles): Accounts {
  const numericId = array('accounts.numeric_id', 'u64')
  const byScore = array('accounts.by_score', 'i32')
  const byFollowers = array('accounts.by_followers', 'i32')
  return {
    byScore,
    byFollowers,
    scorePlace: places(byScore, numericId.length),
    followersPlace: places(byFollowers, numericId.length),
    count: numericId.length,
    platformId: { length: numericId.length, at: (idx) => numericId[idx].toString() },
    numericId,
    // never NULL (the build's audits)
    username: texts('accounts.username', 'memory') as Column<string>,
    slug: texts('accounts.slug', 'memory'),
    name: texts('accounts.name', 'memory'),
    description: texts('accounts.description', 'memory'),
    profileImage: texts('accounts.profile_image', 'memory'),
    blueVerified: array('accounts.blue_verified', 'u8'),
    isTracked: array('accounts.is_tracked', 'u8'),
    isMonitored: array('accounts.is_monitored', 'u8'),
    isSmart: array('accounts.is_smart', 'u8'),
    platformScore: array('accounts.platform_score', 'f64'),
    graphScore: array('accounts.graph_score', 'f64'),
    followersCount: array('accounts.followers_count', 'f64'),
    smartFollowersCount: array('accounts.smart_followers_count', 'i32'),
    rank: array('accounts.rank', 'i32'),
  }
}

/** Each account's place in `order` (-1 when absent). */
function places(order: Int32Array, count: number): Int32Array {
  const place = new Int32Array(count).fill(-1)
  for (let p = 0; p < order.length; p++) place[order[p]] = p
  return place
}

/** Old handles per account, in file order (account, then change date and username). */
function loadPreviousUsernames(rows: Record<string, unknown>[], owners: number): PreviousUsernames {
  const offsets = new Int32Array(owners + 1)
  for (const row of rows) offsets[(row.account_idx as number) + 1]++
  for (let i = 1; i <= owners; i++) offsets[i] += offsets[i - 1]
  return { offsets, username: rows.map((row) => row.username as string) }
}

/** Tags or categories by account, with ids 0..31 as a bit mask (membership in O(1) for filters over many rows). */
function labels({ array }: ServingFiles, table: string): AccountLabels {
  const offsets = array(`${table}.offsets`, 'i32')
  const ids = array(`${table}.id`, 'i32')
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

/** One list per (days, metric), rows in rank order (the columns come sorted by days, metric, rank). */
function trendingLists({ array }: ServingFiles): Map<string, TrendingList> {
  const days = array('trending.days', 'i32')
  const byScore = array('trending.by_score', 'u8')
  const accountIdx = array('trending.account_idx', 'i32')
  const scoreDiff = array('trending.platform_score_diff', 'f64')
  const followersDiff = array('trending.smart_followers_diff', 'i32')
  const lists = new Map<string, TrendingList>()
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
function topResearchedLists(rows: Record<string, unknown>[]): Map<number, TopResearchedList> {
  const lists = new Map<number, TopResearchedList>()
  for (const days of new Set(rows.map((row) => row.days as number))) {
    const list = rows.filter((row) => row.days === days)
    lists.set(days, {
      accountIdx: Int32Array.from(list, (row) => row.account_idx as number),
      lookups: Float64Array.from(list, (row) => row.lookups as number),
    })
  }
  return lists
}
