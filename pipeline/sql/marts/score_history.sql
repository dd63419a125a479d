-- score_history.parquet — grain: one row per (account with a stored score > 0, date) for the 365 days up to the
-- build date: the history files of earlier dates plus this build's scores.
-- columns: account_idx, platform_id, date, platform_score, rank
-- sort: account_idx, date desc
create or replace table score_history as
with scores as (
  select platform_id, score_date as date, platform_score, rank
  from stg_score_history
  where score_date > getvariable('build_date') - 365 and score_date < getvariable('build_date')
  union all
  select platform_id, getvariable('build_date'), platform_score, rank from int_scores where platform_score > 0
)
select a.account_idx, s.platform_id, s.date, s.platform_score, s.rank
from scores s
join int_accounts a on a.platform_id = s.platform_id
order by a.account_idx, s.date desc;
