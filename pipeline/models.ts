/**
 * The pipeline's models in the fixed order the runner executes them. A model is one `.sql` file under `sql/` that
 * creates the object of the same name (a few also create or replace the tables their next steps read, as their
 * comments say). Adding a snapshot file = one `marts/<file>.sql` plus one line in MARTS; a
 * history table (written in parts: closed months, weeks of the build date's month) = one `history/<table>.sql` plus
 * its entry in pipeline/history-tables.ts.
 */
/** Views over the reference tables of the build date's folder and the raw days this build folds. */
export const STAGING = [
  'stg_accounts', 'stg_previous_usernames', 'stg_friends', 'stg_categories', 'stg_tag_categories', 'stg_tags',
  'stg_account_categories', 'stg_account_tags', 'stg_follow_scans', 'stg_follower_counts', 'stg_tweets',
  'stg_score_history', 'stg_lookups',
]

/** What a day adds to the state's follow runs: one night on the day before's state, or every day from scratch. */
export const FOLD_NIGHT = 'int_runs_day'
export const FOLD_FROM_SCRATCH = 'int_runs_full'
/** After the fold: the runs as of the build date, the day's scans and events, the follower-count series. */
export const FOLDED = ['int_runs', 'int_day_scans', 'int_day_events', 'int_follower_counts']

/**
 * Models the score needs, up to the seed vector. The runner (pipeline/score.ts) then runs two passes of
 * int_score_start + repeated int_score_iteration, with int_score_standing between them, and ends with
 * int_score_contributions (what each follower gives) and int_scores.
 */
export const SCORE_INPUTS = [
  'int_accounts', 'int_following_now', 'int_smart_edges', 'int_score_outdegree', 'int_score_reciprocal',
  'int_score_seeds',
]
export const SCORE_START = 'int_score_start'
export const SCORE_ITERATION = 'int_score_iteration'
export const SCORE_STANDING = 'int_score_standing'
export const SCORE_CONTRIBUTIONS = 'int_score_contributions'
export const SCORES = 'int_scores'

/** The remaining intermediate models, after the score. */
export const INTERMEDIATE = [
  'int_follow_events', 'int_smart_followers', 'int_score_ago', 'int_followers_series', 'int_bucket_members',
  'int_window_gains', 'int_growth', 'int_score_ranks',
  // the score's explanations (docs/score.md)
  'int_score_changes',
]

/** One model per snapshot file (`<name>.parquet`), in dependency order. */
export const MARTS = [
  'accounts', 'previous_usernames', 'categories', 'tag_categories', 'tags', 'account_categories', 'account_tags',
  'smart_followers', 'categorized_followers_count', 'followers_diff',
  'friendship_followed', 'friendship_following', 'smart_follows',
  // the operations of docs/extra-operations.md
  'score_dates', 'trending', 'top_researched',
  // the score's explanations (docs/score.md)
  'score_explanations', 'score_contributors', 'score_changes',
]

/** Intermediate tables read after the marts (by the audits, the state's commit and the serving columns); the runner
 * drops every other int_* table once the marts exist. */
export const KEPT_AFTER_MARTS = [
  'int_accounts', 'int_smart_edges', 'int_smart_followers', 'int_scores', 'int_score_rows',
  'int_runs_opened', 'int_runs_closed', 'int_day_scans', 'int_day_events',
]

/** Zero-row checks run before anything is published. */
export const AUDITS = ['not_null_ids', 'unique_keys', 'scores_in_range', 'edge_ends_exist', 'list_caps', 'sort_orders']
