-- score_history.parquet — grain: one row per (account with a score > 0 that day, scored date) for the 365 days up to
-- the build date: the sparse history of earlier dates (stg_score_history: a row per change) spread over the scored
-- dates, plus this build's scores.
-- columns: account_idx, platform_id, date, platform_score, rank
-- sort: account_idx, date desc
create or replace table score_history as
with window_start as (select getvariable('build_date') - 364 as first),
changes as (
  -- the changes within the window, and each account's last change before it (its score on the window's first day)
  select platform_id, score_date, platform_score, rank from stg_score_history, window_start
  where score_date >= first
  union all
  select platform_id, score_date, last.platform_score, last.rank
  from (
    select platform_id, max(score_date) as score_date,
      arg_max({'platform_score': platform_score, 'rank': rank}, score_date) as last
    from stg_score_history, window_start
    where score_date < first
    group by platform_id
  )
  union all
  select platform_id, getvariable('build_date'), platform_score, rank from int_scores
),
spans as (
  select *, lead(score_date) over (partition by platform_id order by score_date) as until from changes
),
-- every day of a span with a score, from the window's first day; scored dates only (a gap day has no scores)
days as (
  select platform_id, platform_score, rank,
    unnest(range(greatest(score_date, first), coalesce(until, getvariable('build_date') + 1), interval 1 day))::date as date
  from spans, window_start
  where platform_score > 0 and (until is null or until > first)
),
dates as (
  select score_date as date from stg_score_history_dates, window_start where score_date >= first
  union all
  select getvariable('build_date')
)
select a.account_idx, d.platform_id, d.date, d.platform_score, d.rank
from days d
semi join dates s on s.date = d.date
join int_accounts a on a.platform_id = d.platform_id
order by a.account_idx, d.date desc;
