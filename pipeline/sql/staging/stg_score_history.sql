-- Score history of earlier dates (snapshots/history/scores/<date>.parquet), filled by stg_score_history_append.
-- stg_score_history_dates lists the dates whose file exists: a date listed there with no row for an account means
-- score 0 (history keeps scores > 0 only); a date not listed means "unknown".
create or replace table stg_score_history (score_date date, platform_id ubigint, platform_score double, rank integer);
create or replace table stg_score_history_dates (score_date date);
