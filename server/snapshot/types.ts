/**
 * The serving structures of one snapshot (docs/snapshot.md), loaded once by `loadSnapshot` from the snapshot's
 * serving columns and never mutated. Numbers live in typed arrays indexed by `account_idx`; one-to-many relations are CSR adjacency:
 * the rows of owner `i` are `offsets[i] .. offsets[i + 1] - 1`, in the order the snapshot file was written.
 * Ids are strings (they exceed 2^53). Dates are whole days since 1970-01-01 (UTC), timestamps epoch milliseconds.
 * The big per-row arrays use the narrowest type that holds their values (memory at the large scale): days Uint16
 * (until 2149), counters Uint32. Texts (handles, names, descriptions, tweet texts) are UTF-8 bytes per column
 * (`Texts`), decoded when a row is rendered: the JS heap holds no per-account object, so a full garbage collection
 * has little to walk. The biggest columns a request reads only a few rows of (the daily
 * series, `subscribed_at`, tweet texts) stay on disk (`DiskColumn`), read by row range per request.
 */
import type { Column, DiskColumn, Texts } from './serving-files.ts'

/** One-to-many rows grouped by an owner index. */
export interface Adjacency {
  /** Length owners + 1. */
  offsets: Int32Array
}

export interface Accounts {
  count: number
  /** The decimal id (ids exceed 2^53), made from `numericId` when rendered. */
  platformId: Column<string>
  /** The ids as numbers, ascending (= account_idx order: an id is found by binary search). */
  numericId: BigUint64Array
  username: Column<string>
  /** null for friend-only records */
  slug: Column<string | null>
  name: Column<string | null>
  /** '' for none: `at` never answers null. */
  description: Texts
  /** null for none. */
  profileImage: Texts
  blueVerified: Uint8Array
  isTracked: Uint8Array
  isMonitored: Uint8Array
  isSmart: Uint8Array
  platformScore: Float64Array
  /** NaN when the account has no friend record. */
  graphScore: Float64Array
  followersCount: Float64Array
  smartFollowersCount: Int32Array
  /** 1 = highest score among tracked accounts; 0 for friend-only records (rank NULL). */
  rank: Int32Array
  /** The tracked accounts by score and by follower count, descending (ties by account_idx). */
  byScore: Int32Array
  byFollowers: Int32Array
  /** Each account's place in `byScore` / `byFollowers` (-1 for friend-only records). */
  scorePlace: Int32Array
  followersPlace: Int32Array
}

/** previous_usernames.parquet grouped by account: old handles, oldest change first. */
export interface PreviousUsernames extends Adjacency {
  username: string[]
}

/** Tags and categories of each account: sorted ids, `offsets` by account_idx. */
export interface AccountLabels extends Adjacency {
  ids: Int32Array
  /** Bit `id` set for the account's ids 0..31: membership in O(1) for the usual small ids (filters scan many rows). */
  mask: Uint32Array
}

export interface Reference {
  id: number
  name: string
}

export interface Tag extends Reference {
  tagCategoryId: number
}

/** smart_followers.parquet grouped by target: rows in `by=score desc` order. */
export interface SmartFollowers extends Adjacency {
  followerIdx: Int32Array
  /** `subscribed_at`, epoch milliseconds (on disk). */
  subscribedAtMs: DiskColumn<'f64'>
  /**
   * The other two orders (follower count desc, subscription desc): the row at position p of target t is
   * `byFollowers[offsets[t] + p]` (for `score`, the position is the row).
   */
  byFollowers: Int32Array
  bySubscribed: Int32Array
  /**
   * Each row's follower, on disk (read as one range per target by get_followers_score_sum): its score and its label
   * ids as bit masks, categories 0..30 and tags 0..31 / 32..62; bit 31 of `categories` and of `tagsHigh`
   * (`OTHER_LABELS`) marks a follower with an id outside them, checked on its labels instead.
   */
  followerScore: DiskColumn<'f64'>
  followerLabels: { categories: DiskColumn<'u32'>; tagsLow: DiskColumn<'u32'>; tagsHigh: DiskColumn<'u32'> }
}

/** categorized_followers_count.parquet grouped by target, rows in list order. */
export interface CategorizedCounts extends Adjacency {
  /** -1 for the `All` entry (id null), 0 for `NoCategory`; names come from the category table. */
  categoryId: Int16Array
  cnt: Uint32Array
}

/** followers_count_history.parquet grouped by account, newest day first (on disk: `offsets` in memory). */
export interface FollowersCountHistory extends Adjacency {
  day: DiskColumn<'u16'>
  followersCount: DiskColumn<'u32'>
}

/** friendship_followed.parquet grouped by target, in file order (event_date desc, follower_id asc, action). */
export interface FriendshipFollowed extends Adjacency {
  followerIdx: Int32Array
  /** 1 = Followed, 0 = Unfollowed */
  followed: Uint8Array
  day: Int32Array
}

/** friendship_following.parquet grouped by source, in file order (action, followed id as string, event_date desc). */
export interface FriendshipFollowing extends Adjacency {
  followedIdx: Int32Array
  /** 1 = Following, 0 = Unfollowing */
  following: Uint8Array
  day: Int32Array
  /** main score, or graph score when the main one is 0 */
  platformScore: Float64Array
}

export interface TopAlphaFollower {
  name: string
  username: string
  image: string
  score: number
  verified: boolean
}

export interface SmartFollowsItem {
  platform_id: string
  username: string
  name: string
  description: string
  profile_url: string
  profile_image: string
  blue_verified: boolean
  platform_score: number
  platform_score_diff: number
  current_followers: number
  followers_diff: number
  total_alpha_followers: number
  new_alpha_followers: number
  new_alpha_followers_diff: number
  top_alpha_followers: TopAlphaFollower[]
}

/** One ranked list of smart_follows.parquet: items in rank order plus the two other orders as positions. */
export interface SmartFollowsList {
  byRank: SmartFollowsItem[]
  byScore: SmartFollowsItem[]
  byFollowers: SmartFollowsItem[]
}

/** tweets.parquet: row = tweet_idx (created_at desc, tweet_id desc). */
export interface Tweets {
  count: number
  tweetId: BigUint64Array
  authorId: BigUint64Array
  /** -1 when the author is in neither table */
  authorIdx: Int32Array
  createdAtMs: Float64Array
  /** On disk; null when the text is NULL. */
  text: Texts
  favorites: Uint32Array
  retweets: Uint32Array
  replies: Uint32Array
  views: Uint32Array
}

/** mentions.parquet grouped by mentioned account, newest first. */
export interface Mentions extends Adjacency {
  tweetIdx: Int32Array
  epochSeconds: Uint32Array
  /** The tweet's author (-1 when in neither account table). */
  authorIdx: Int32Array
  /** The row of the target's next newer mention by the same author, -1 for none (unknown authors count as one). */
  newerSameAuthor: Int32Array
}

/** score_history.parquet grouped by account, newest day first (on disk: `offsets` in memory). */
export interface ScoreHistory extends Adjacency {
  day: DiskColumn<'u16'>
  platformScore: DiskColumn<'f64'>
  /** 0 when the stored rank is NULL */
  rank: DiskColumn<'i32'>
}

/** The score's explanation files, each grouped by account (on disk: `offsets` in memory). */
export interface ScoreExplanations {
  /**
   * score_explanations.parquet: per account, the values of EXPLANATION_COMPONENTS (pipeline/serving-columns.ts) back
   * to back (NaN for NULL): account i's are rows i·n .. i·n+n-1.
   */
  components: DiskColumn<'f64'>
  /** score_contributors.parquet: the followers passing the most trust, biggest share first. */
  contributors: Adjacency & {
    followerIdx: DiskColumn<'i32'>
    points: DiskColumn<'f64'>
    share: DiskColumn<'f64'>
    followerIsSeed: DiskColumn<'u8'>
    reciprocal: DiskColumn<'u8'>
  }
  /** score_changes.parquet: per account, its 7-day rows then its 30-day rows, each by |points| desc. */
  changes: Adjacency & {
    days: DiskColumn<'u8'>
    arrived: DiskColumn<'u8'>
    followerIdx: DiskColumn<'i32'>
    followerIsSeed: DiskColumn<'u8'>
    points: DiskColumn<'f64'>
  }
}

/** One list of trending.parquet (one days × metric): rows in rank order (growth desc, platform_id asc). */
export interface TrendingList {
  accountIdx: Int32Array
  platformScoreDiff: Float64Array
  smartFollowersDiff: Int32Array
}

/** One list of top_researched.parquet (one days): rows in rank order (lookups desc, platform_id asc). */
export interface TopResearchedList {
  accountIdx: Int32Array
  lookups: Float64Array
}

export interface Snapshot {
  id: string
  /** build_date, YYYY-MM-DD */
  date: string
  dir: string
  loadedAt: Date
  loadMs: number
  accounts: Accounts
  /**
   * Every lower-case handle, sorted by its UTF-8 bytes, and the account it resolves to (written by the build: a
   * current username, else a slug, else a previous username, the most recent owner of that handle; a tracked account
   * wins a username or slug shared with a friend-only record).
   */
  handles: { key: Texts; accountIdx: Int32Array }
  previousUsernames: PreviousUsernames
  categories: Reference[]
  categoryById: Map<number, Reference>
  tagCategories: Reference[]
  tags: Tag[]
  tagById: Map<number, Tag>
  accountCategories: AccountLabels
  accountTags: AccountLabels
  smartFollowers: SmartFollowers
  categorizedCounts: CategorizedCounts
  followersCountHistory: FollowersCountHistory
  friendshipFollowed: FriendshipFollowed
  friendshipFollowing: FriendshipFollowing
  /** key `${days}:${bucket}` (days 1|7|30, bucket all|vc|inf|angels) */
  smartFollows: Map<string, SmartFollowsList>
  tweets: Tweets
  mentions: Mentions
  scoreHistory: ScoreHistory
  scoreExplanations: ScoreExplanations
  /** key `${days}:${metric}` (days 1|7|30, metric smart_followers|score); a missing key is an empty list */
  trending: Map<string, TrendingList>
  /** key days (1|7|30); a missing key is an empty list */
  topResearched: Map<number, TopResearchedList>
  /** smart_mentions.parquet: the mentions whose author is smart */
  smartMentions: Mentions
}
