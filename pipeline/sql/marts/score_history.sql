-- score_history.parquet — grain: one row per (account, scored date on which its score or rank changed) within the
-- 365 days up to the build date; the scored dates are score_dates.parquet. An account's score on a scored date is
-- its last row on or before that date (none: no score); a row with platform_score 0 (rank NULL) ends a score. The
-- window's first scored date holds every account's score as of that date. Ranks are shown for the last
-- RANK_HISTORY_DAYS days (rank_cutoff); earlier rows are the changes of score, with rank NULL.
-- Sources: stg_score_history (the state's rows, each already a change from the row before it, then a backfill's
-- rows, one per account and date) and this build's scores. Only the rows from the first date this build scored
-- (`fresh`: this build's date, or the first backfilled one) are compared with the row before them, so a night reads
-- the state's year of changes once, without sorting it per account.
-- columns: account_idx, platform_id, date, platform_score, rank (NULL when platform_score is 0)
-- sort: account_idx, date desc
create or replace table score_history as
with bounds as (
  select (select min(date) from score_dates) as first,
    (select coalesce(min(score_date), getvariable('build_date')) from int_score_rows) as fresh
),
stored as (
  select platform_id, score_date, platform_score, if(platform_score > 0, rank, null) as rank from stg_score_history
  union all
  select platform_id, getvariable('build_date'), platform_score, if(platform_score > 0, rank, null) from int_scores
),
-- per account: its score as of the first scored date, and the row before its first fresh row after that date
anchors as (
  select platform_id,
    arg_max({'platform_score': platform_score, 'rank': rank}, score_date)
      filter (where score_date <= first) as at_first,
    arg_max({'platform_score': platform_score, 'rank': rank}, score_date) as before_fresh
  from stored, bounds
  where score_date <= first or score_date < fresh
  group by platform_id
),
-- the fresh rows after the first date, each marked with the score and rank of the row before it
fresh as (
  select platform_id, score_date, platform_score, rank,
    lag(platform_score) over w as before_score, lag(rank) over w as before_rank, row_number() over w = 1 as leads
  from stored, bounds
  where score_date >= fresh and score_date > first
  window w as (partition by platform_id order by score_date)
),
changes as (
  select platform_id, first as score_date, at_first.platform_score, at_first.rank
  from anchors, bounds
  where at_first.platform_score > 0
  union all
  select platform_id, score_date, platform_score, rank
  from stored, bounds
  where score_date > first and score_date < fresh
  union all
  select f.platform_id, f.score_date, f.platform_score, f.rank
  from fresh f
  left join anchors a on a.platform_id = f.platform_id
  where not (
    if(f.leads, coalesce(a.before_fresh.platform_score, 0), f.before_score) = f.platform_score
    and if(f.leads, a.before_fresh.rank, f.before_rank) is not distinct from f.rank)
),
-- ranks are shown from the first scored date of the rank window (rank_cutoff: RANK_HISTORY_DAYS ending on the build
-- date) on; the state keeps them longer (pipeline/state.ts), so a rerun shows the same window
window_start as (select min(date) as rank_from from score_dates where date >= getvariable('rank_cutoff')),
before_window as (
  select platform_id, score_date, platform_score, rank,
    lag(platform_score) over w as before_score, lead(score_date) over w is null as last_before
  from changes, window_start
  where score_date < rank_from
  window w as (partition by platform_id order by score_date)
),
windowed as (
  -- before the window: the changes of score, unranked
  select platform_id, score_date, platform_score, null::integer as rank
  from before_window
  where before_score is null or before_score <> platform_score
  union all
  -- the window's first date: an account whose last row before it is ranked and that has no row that day
  select b.platform_id, w.rank_from, b.platform_score, b.rank
  from before_window b, window_start w
  where b.last_before and b.rank is not null
    and b.platform_id not in (select platform_id from changes, window_start where score_date = rank_from)
  union all
  select platform_id, score_date, platform_score, rank
  from changes, window_start
  where score_date >= rank_from
)
select a.account_idx, c.platform_id, c.score_date as date, c.platform_score, c.rank
from windowed c
join int_accounts a on a.platform_id = c.platform_id
order by a.account_idx, date desc;
