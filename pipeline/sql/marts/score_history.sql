-- score_history.parquet — grain: one row per (account with a score > 0 that day, scored date) for the 365 days up to
-- the build date: the sparse history of earlier dates (stg_score_history) spread over the scored dates, plus this
-- build's scores.
-- columns: account_idx, platform_id, date, platform_score, rank
-- sort: account_idx, date desc
create or replace table score_history as
with changes as (
  select platform_id, score_date, platform_score, rank from stg_score_history
  union all
  select platform_id, getvariable('build_date'), platform_score, rank from int_scores
),
spans as (
  select *, lead(score_date) over (partition by platform_id order by score_date) as until
  from changes
),
dates as (
  select score_date as date from stg_score_history_dates where score_date > getvariable('build_date') - 365
  union all
  select getvariable('build_date')
)
select a.account_idx, s.platform_id, d.date, s.platform_score, s.rank
from spans s
join dates d on d.date >= s.score_date and (s.until is null or d.date < s.until)
join int_accounts a on a.platform_id = s.platform_id
where s.platform_score > 0 and (s.until is null or s.until > getvariable('build_date') - 364)
order by a.account_idx, d.date desc;
