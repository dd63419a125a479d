/**
 * The raw input contract of docs/raw-data.md as data: every required file, its columns with their DuckDB types,
 * its key, the columns that may be NULL and the value ranges. The ingest check (`validate-raw.ts`) compares each
 * file against this table before any model runs.
 */
export interface RawFile {
  /** file name inside the raw folder */
  file: string
  /** column name → DuckDB type exactly as `DESCRIBE` prints it; extra columns in a file are ignored */
  columns: Record<string, string>
  /** columns that identify a row: never null, never repeated */
  key: string[]
  /**
   * columns that may be NULL; every other column is required (never NULL), and a required list column also holds
   * no NULL item (it may be empty)
   */
  nullable?: string[]
  /** text columns that must cast to a type (column → DuckDB type), e.g. ISO 8601 timestamps */
  parses?: Record<string, string>
  /** numeric columns' allowed values, bounds included; a DOUBLE column must also be finite (no NaN, no ±inf) */
  ranges?: Record<string, Range>
  /** columns whose every value is a key of another file of the folder: column → [file, its key column] */
  references?: Record<string, [string, string]>
  /**
   * handle columns: never empty or blank (only white space or invisible characters): an account's handle is how the
   * API finds it and shows it
   */
  handles?: string[]
}

export interface Range {
  min: number
  max?: number
}

const COUNTER: Range = { min: 0 }
/** the graph-side score, on the product's 0..1000 scale */
const SCORE: Range = { min: 0, max: 1000 }
/** free text a profile may lack */
const PROFILE_TEXT = ['name', 'description', 'profile_image']

export const RAW_FILES: RawFile[] = [
  {
    file: 'accounts.parquet',
    key: ['account_id'],
    nullable: PROFILE_TEXT,
    ranges: { followers_count: COUNTER },
    handles: ['username'],
    columns: {
      account_id: 'UBIGINT', username: 'VARCHAR', slug: 'VARCHAR', name: 'VARCHAR', description: 'VARCHAR',
      profile_image: 'VARCHAR', blue_verified: 'BOOLEAN', is_active: 'BOOLEAN', is_suspended: 'BOOLEAN',
      is_monitored: 'BOOLEAN', followers_count: 'BIGINT',
    },
  },
  {
    file: 'previous_usernames.parquet',
    key: ['account_id', 'username'],
    handles: ['username'],
    columns: { account_id: 'UBIGINT', username: 'VARCHAR', changed_at: 'DATE' },
  },
  {
    file: 'friends.parquet',
    key: ['account_id'],
    nullable: PROFILE_TEXT,
    ranges: { followers_count: COUNTER, graph_score: SCORE },
    handles: ['username'],
    columns: {
      account_id: 'UBIGINT', username: 'VARCHAR', name: 'VARCHAR', description: 'VARCHAR', profile_image: 'VARCHAR',
      followers_count: 'BIGINT', graph_score: 'DOUBLE',
    },
  },
  { file: 'categories.parquet', key: ['category_id'], columns: { category_id: 'INTEGER', name: 'VARCHAR' } },
  { file: 'tag_categories.parquet', key: ['tag_category_id'], columns: { tag_category_id: 'INTEGER', name: 'VARCHAR' } },
  {
    file: 'tags.parquet',
    key: ['tag_id'],
    references: { tag_category_id: ['tag_categories.parquet', 'tag_category_id'] },
    columns: { tag_id: 'INTEGER', name: 'VARCHAR', tag_category_id: 'INTEGER' },
  },
  {
    file: 'account_categories.parquet',
    key: ['account_id', 'category_id'],
    references: { category_id: ['categories.parquet', 'category_id'] },
    columns: { account_id: 'UBIGINT', category_id: 'INTEGER' },
  },
  {
    file: 'account_tags.parquet',
    key: ['account_id', 'tag_id'],
    references: { tag_id: ['tags.parquet', 'tag_id'] },
    columns: { account_id: 'UBIGINT', tag_id: 'INTEGER' },
  },
  {
    file: 'follow_scans.parquet',
    key: ['account_id', 'scan_date'],
    columns: { scan_date: 'DATE', scanned_at: 'TIMESTAMP', account_id: 'UBIGINT', following_ids: 'UBIGINT[]' },
  },
  {
    file: 'follower_counts.parquet',
    key: ['account_id', 'scan_date'],
    ranges: { followers_count: COUNTER },
    columns: { scan_date: 'DATE', account_id: 'UBIGINT', followers_count: 'BIGINT' },
  },
  {
    file: 'tweets.parquet',
    key: ['tweet_id'],
    nullable: ['text'],
    parses: { created_at: 'TIMESTAMPTZ' },
    ranges: { favorites: COUNTER, retweets: COUNTER, replies: COUNTER, views: COUNTER },
    columns: {
      tweet_id: 'UBIGINT', author_id: 'UBIGINT', created_at: 'VARCHAR', text: 'VARCHAR',
      urls: 'STRUCT(short_url VARCHAR, display_url VARCHAR)[]', favorites: 'BIGINT', retweets: 'BIGINT',
      replies: 'BIGINT', views: 'BIGINT', mentioned_ids: 'UBIGINT[]',
    },
  },
]
