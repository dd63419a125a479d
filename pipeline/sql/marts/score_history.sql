-- score_history.parquet — grain: one row per (account, scored date on which its score changed) within the 365 days
-- up to the build date; the scored dates are score_dates.parquet, the ranks of the last RANK_HISTORY_DAYS of them
-- the score_ranks parts. An account's score on a scored date is its last row on or before that date (none: no
-- score); a row with platform_score 0 ends a score. The window's first scored date holds every account's score as of
-- that date.
-- Sources: stg_score_history (the state's rows, each already a change from the row before it, then a backfill's
-- rows, one per account and date) and this build's scores. Only the rows from the first date this build scored
-- (`fresh`: this build's date, or the first backfilled one) are compared with the row before them, so a night reads
-- the state's year of changes once, without sorting it per account.
-- columns: account_idx, platform_id, date, platform_score
-- sort: account_idx, date desc
create or replace table score_history as
with bounds as (
  select (select min(date) from score_dates) as first,
    (select coalesce(min(score_date), getvariable('build_date')) from int_score_rows) as fresh
),
stored as (
  select platform_id, score_date, platform_score from stg_score_history
  union all
  select platform_id, getvariable('build_date'), platform_score from int_scores
),
-- per account: its score as of the first scored date, and that of the row before its first fresh row after it
anchors as (
  select platform_id,
    arg_max(platform_score, score_date) filter (where score_date <= first) as at_first,
    arg_max(platform_score, score_date) as before_fresh
  from stored, bounds
  where score_date <= first or score_date < fresh
  group by platform_id
),
-- the fresh rows after the first date, each marked with the score of the row before it
fresh as (
  select platform_id, score_date, platform_score,
    if(row_number() over w = 1, null, lag(platform_score) over w) as before_score
  from stored, bounds
  where score_date >= fresh and score_date > first
  window w as (partition by platform_id order by score_date)
),
changes as (
  select platform_id, first as score_date, at_first as platform_score
  from anchors, bounds
  where at_first > 0
  union all
  select platform_id, score_date, platform_score
  from stored, bounds
  where score_date > first and score_date < fresh
  union all
  select f.platform_id, f.score_date, f.platform_score
  from fresh f
  left join anchors a on a.platform_id = f.platform_id
  where coalesce(f.before_score, a.before_fresh, 0) <> f.platform_score
)
select a.account_idx, c.platform_id, c.score_date as date, c.platform_score
from changes c
join int_accounts a on a.platform_id = c.platform_id
order by a.account_idx, date desc;
