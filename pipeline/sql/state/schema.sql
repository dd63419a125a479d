-- The pipeline state (docs/pipeline.md), one DuckDB database attached as `st`: what a night carries to the next.
-- Every table is keyed by a day column, so the state as of any day D is "rows dated before D" (runs: opened before
-- D, still open when closed on or after D) and a rerun or a failed night rewinds by deleting the rows dated D or later.
create table if not exists st.follow_runs (
  -- one row per uninterrupted run of scans in which a monitored account (source) follows an account (target):
  -- valid_from = scan_date of the first scan holding it, valid_to = scan_date of the first scan without it (NULL:
  -- still followed), subscribed_at = scanned_at of that first scan; is_baseline = opened by the source's first scan
  source_id ubigint, target_id ubigint, subscribed_at timestamp, valid_from date, valid_to date, is_baseline boolean);
create table if not exists st.follow_events (
  -- the follow/unfollow log: kind 'follow' | 'unfollow' on the scan_date that revealed it
  event_date date, source_id ubigint, target_id ubigint, kind varchar);
create table if not exists st.follow_scans (
  -- one row per scan ingested (the lists themselves live in follow_runs)
  scan_date date, source_id ubigint, scanned_at timestamp, following_count integer);
create table if not exists st.follow_sources (
  -- one row per monitored account ever scanned, dated by its first scan: how a night tells a source's first scan
  -- (its follows are the baseline) without reading every stored scan
  first_scanned date, source_id ubigint);
create table if not exists st.follower_counts (scan_date date, platform_id ubigint, followers_count bigint);
create table if not exists st.tweets (
  -- the mention index: one row per tweet and delivery day (a tweet delivered again replaces the older version),
  -- with its display text (short links resolved, at most 4,000 characters); superseded_on = the ingest_date of the
  -- next delivery of the same tweet (NULL: the latest one); row_hash = the hash of the delivery's content
  -- (stg_tweets), which the tweets parts' fingerprints sum
  ingest_date date, tweet_id ubigint, author_id ubigint, created_at timestamptz, text varchar, favorites bigint,
  retweets bigint, replies bigint, views bigint, mentioned_ids ubigint[], superseded_on date, row_hash ubigint);
create table if not exists st.score_history (
  -- the score history, sparse: one row per account and scored date on which its score changed (from the last row
  -- before it; an account first scored > 0 starts with a row; platform_score 0 = no score from that date). The
  -- score of an account on a scored date = its last row on or before that date, 0 without one.
  score_date date, platform_id ubigint, platform_score double);
create table if not exists st.score_keyframes (
  -- every account's score > 0 as of a scored date, written every 7 days; kept, those of the last 45 days and, for 410
  -- days, the last of each month (sql/state/apply_scores.sql). An account's score as of a date D is its last row on
  -- or before D among the keyframe on or before D and the score_history rows after it, so a night reads a keyframe
  -- and the weeks after it, not the whole history (sql/staging/stg_score_history.sql)
  score_date date, platform_id ubigint, platform_score double);
create table if not exists st.score_ranks (
  -- the ranks of the scored dates of the last RANK_KEPT_DAYS days (pipeline/state.ts): one row per ranked account
  -- (tracked, score > 0) and date. A rank moves whenever an account above it crosses, so they are kept per date,
  -- not as changes, and only as long as snapshots show them.
  score_date date, platform_id ubigint, rank integer);
create table if not exists st.score_dates (
  -- the dates scored; the score of a date not listed here is unknown
  score_date date);
create table if not exists st.lookup_counts (date date, platform_id ubigint, lookups bigint);
create table if not exists st.lookup_files (file varchar, lines bigint, folded_at timestamptz);
create table if not exists st.days (
  -- one row per day folded into the state: kind 'night' (built and published), 'replay' (a missed day caught up
  -- and scored, no snapshot) or 'import' (a fold of every day up to it from scratch); published is false until
  -- `current` points to snapshot_id
  day date, kind varchar, snapshot_id varchar, published boolean, committed_at timestamptz, raw varchar);
create table if not exists st.raw_days (
  -- one row per raw day folder whose daily files are folded into the state: the folders retention may delete, and
  -- how a build tells a folder delivered after its day was built without it
  day date, folded_at timestamptz);
create table if not exists st.replay_days (
  -- days a rewind for a late raw folder took back, which builds replay (gap days too) until each is committed again
  day date);
