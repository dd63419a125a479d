/**
 * The history tables of a snapshot (docs/snapshot.md, "History parts"): what each holds, how its parts are sorted and
 * served, and its analysts' view; pipeline/history-parts.ts writes them.
 *
 * @example HISTORY_TABLES.map((t) => t.name) // ['followers_count_history', 'tweets', 'score_history', 'score_ranks']
 */
import type { AccountRefs } from './account-refs.ts'
import { sqlDay, type ColumnType } from './serving-writer.ts'

/** The Parquet file of each part: `<table>/period=<period>/data.parquet`. */
export const PART_FILE = 'data.parquet'

export interface HistoryTable {
  /** the model (pipeline/sql/history/<name>.sql: a table or view with a `day` column, the row's UTC day, DATE) and
   * the folder's name */
  name: string
  /** the intermediate models only this table reads, run with it (beside the Parquet files and the serving columns) */
  models: string[]
  /** the Parquet columns and their types, key first */
  columns: Record<string, string>
  /** a column of the model holding each row's hash of its content, kept in the state (the fingerprints sum it
   * instead of hashing the row's columns: a night does not read every stored text) */
  rowHash?: string
  /** `platform_id` for a table of per-account series (a part's rows grouped by it), null for rows in `order` only */
  key: 'platform_id' | null
  /** `day` for a part per day (a table of daily snapshots: each day's rows are written once); `week` for a part per
   * week of every month, never merged into months (a table whose recent days change: a night rewrites at most the
   * weeks of those days, at a month's start too); else by month and week as above */
  parts?: 'day' | 'week'
  /** the order of a part's rows (after the key) */
  order: string
  /** the columns whose values are unique within the table (audited in every part written) */
  unique: string[]
  /** the serving columns besides the keys and offsets: name → [type, SQL] */
  serving: Record<string, [ColumnType, string]>
  /** the text serving columns (NULL allowed): name → SQL */
  texts: Record<string, string>
  /** serving columns of the positions (i32, ascending) of a part's rows that meet a condition, for rare rows the
   * server must know without reading a value: name → SQL condition */
  marks?: Record<string, string>
  /** the columns naming accounts by id, given to the server by account_idx (pipeline/account-refs.ts) */
  refs?: AccountRefs
  /** the analysts' view of the table over its parts (`parts`) and the other files' views (pipeline/snapshot-sql.ts) */
  view: string
  /**
   * a row's values are fixed once its day is folded and scored: the parts of days a build did not fold, replay or score
   * are those of the snapshot before, carried without reading their rows. `true`; or, for a table that keeps every
   * row but whose rows of any day may change (the tweets: a tweet delivered again changes the part of the day it was
   * created), the SQL of the days (`day`, VARCHAR) whose rows this build may have changed that way, given the first
   * day it folded, replayed or rewound (`since`): their parts are computed again
   */
  settled?: true | { changedDays: (since: string) => string }
  /**
   * SQL of a bound on the rows' day (`>=`: from `day` on; `<`: before it) that DuckDB can answer from the stored
   * columns' ranges without computing `day` for every stored row (by default, on `day` itself)
   */
  dayBound?: (op: '>=' | '<', day: string) => string
}

/**
 * A history table of one value per account and date (`value`, of SQL type `type`, served as `serving`), a part's rows
 * grouped by account, newest date first; its view gives the accounts that meet `accounts` (a condition on `a`, the
 * snapshot's accounts) by account_idx.
 */
function accountSeries(name: string, value: string, type: string, serving: ColumnType, accounts = 'true'): HistoryTable {
  return {
    name,
    models: [],
    columns: { platform_id: 'UBIGINT', date: 'DATE', [value]: type },
    key: 'platform_id',
    order: 'date DESC',
    unique: ['platform_id', 'date'],
    serving: { day: ['u16', sqlDay('date')], [value]: [serving, `${value}::DOUBLE`] },
    texts: {},
    settled: true,
    view: `select a.account_idx, h.platform_id, h.date, h.${value}
      from parts h join accounts a on a.platform_id = h.platform_id and ${accounts}
      order by a.account_idx, h.date desc`,
  }
}

export const HISTORY_TABLES: HistoryTable[] = [
  // the monitored accounts' series (what the API answers), by account_idx as the other files
  accountSeries('followers_count_history', 'followers_count', 'BIGINT', 'u32', 'a.is_monitored'),
  {
    name: 'tweets',
    models: ['int_tweets'],
    columns: {
      tweet_id: 'UBIGINT', author_id: 'UBIGINT', created_at: 'TIMESTAMP WITH TIME ZONE', created_at_iso: 'VARCHAR', text: 'VARCHAR',
      favorites: 'BIGINT', retweets: 'BIGINT', replies: 'BIGINT', views: 'BIGINT', mentioned_ids: 'UBIGINT[]',
    },
    rowHash: 'row_hash',
    // the creation days (the day of history/tweets.sql) of the tweets this build delivers, and of those the state
    // holds deliveries of from `since` on (before the build commits: what a rerun or a replay takes back or replays)
    settled: {
      changedDays: (since) => `SELECT DISTINCT make_timestamp(epoch_us(created_at))::DATE::VARCHAR AS day FROM (
        SELECT created_at FROM int_tweets_folded UNION ALL SELECT created_at FROM st.tweets WHERE ingest_date >= DATE '${since}')`,
    },
    // day is created_at's UTC date: the state's tweets are read by their creation time
    dayBound: (op, day) => `created_at ${op} TIMESTAMPTZ '${day} 00:00:00+00'`,
    key: null,
    // tweets delivered again change the days before the build date: a month merged on its close would be written
    // again whole by the first nights of the next
    parts: 'week',
    order: 'created_at DESC, tweet_id DESC',
    unique: ['tweet_id'],
    serving: {
      tweet_id: ['u64', 'tweet_id::UBIGINT'],
      author_id: ['u64', 'author_id::UBIGINT'],
      created_at_ms: ['f64', 'epoch_ms(created_at)::DOUBLE'],
      favorites: ['u32', 'favorites::DOUBLE'],
      retweets: ['u32', 'retweets::DOUBLE'],
      replies: ['u32', 'replies::DOUBLE'],
      views: ['u32', 'views::DOUBLE'],
    },
    texts: { text: 'text' },
    refs: { author: 'author_id', mentioned: 'mentioned_ids' },
    // the parts newest first are the tweets in the snapshot's order: tweet_idx (what mentions refer to) is a row's
    // position in them
    view: `select (row_number() over (order by t.created_at desc, t.tweet_id desc) - 1)::integer as tweet_idx,
        t.tweet_id, t.author_id, a.account_idx as author_idx, t.created_at, t.created_at_iso, t.text,
        t.favorites, t.retweets, t.replies, t.views, t.mentioned_ids
      from parts t left join accounts a on a.platform_id = t.author_id
      order by tweet_idx`,
  },
  // with the positions of the rows that end a score (platform_score 0: rare), which a request skips
  { ...accountSeries('score_history', 'platform_score', 'DOUBLE', 'f64'), marks: { ended: 'platform_score = 0' } },
  {
    name: 'score_ranks',
    models: [],
    columns: { platform_id: 'UBIGINT', date: 'DATE', rank: 'INTEGER' },
    key: null,
    parts: 'day',
    order: 'platform_id',
    unique: ['platform_id', 'date'],
    // for analysts only (no serving folder): the server reads each account's ranks from one serving column
    // (pipeline/serving-columns.ts)
    serving: {},
    texts: {},
    settled: true,
    view: `select a.account_idx, r.platform_id, r.date, r.rank
      from parts r join accounts a on a.platform_id = r.platform_id
      order by r.date desc, r.rank`,
  },
]
