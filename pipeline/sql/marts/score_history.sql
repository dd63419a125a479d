-- score_history.parquet — grain: one row per (account, scored date on which its score or rank changed) within the
-- 365 days up to the build date; the scored dates are score_dates.parquet. An account's score on a scored date is
-- its last row on or before that date (none: no score); a row with platform_score 0 (rank NULL) ends a score. The
-- window's first scored date carries every account's score as of that date.
-- Sources: the state's sparse history and a backfill's dense rows (stg_score_history), this build's scores.
-- columns: account_idx, platform_id, date, platform_score, rank (NULL when platform_score is 0)
-- sort: account_idx, date desc
create or replace table score_history as
with first_date as (select min(date) as first from score_dates),
stored as (
  select platform_id, score_date, platform_score, if(platform_score > 0, rank, null) as rank from stg_score_history
  union all
  select platform_id, getvariable('build_date'), platform_score, if(platform_score > 0, rank, null) from int_scores
),
in_window as (
  select platform_id, score_date, platform_score, rank from stored, first_date where score_date > first
  union all
  -- each account's row on the first scored date, or its last row before it, dated the first scored date
  select platform_id, first, last.platform_score, last.rank
  from (
    select platform_id, any_value(first) as first,
      arg_max({'platform_score': platform_score, 'rank': rank}, score_date) as last
    from stored, first_date where score_date <= first
    group by platform_id
  )
),
changes as (
  select *,
    lag(platform_score, 1, 0) over w as before_score,
    lag(rank) over w as before_rank
  from in_window
  window w as (partition by platform_id order by score_date)
)
select a.account_idx, c.platform_id, c.score_date as date, c.platform_score, c.rank
from changes c
join int_accounts a on a.platform_id = c.platform_id
where c.platform_score <> c.before_score or c.rank is distinct from c.before_rank
order by a.account_idx, date desc;
