-- One row per account and look-back (1, 7, 30 days): the score on build_date - days from the score history (its
-- last row on or before that date). NULL when that date was never scored; 0 when it was and the account had no score.
create or replace table int_score_ago as
with lookbacks as (select unnest([1, 7, 30]) as days),
-- one pass over the history from the keyframe before the earliest look-back date: each account's last row on or
-- before each look-back date
as_of as (
  select platform_id,
    arg_max(platform_score, score_date) filter (where score_date <= getvariable('build_date') - 1) as ago_1,
    arg_max(platform_score, score_date) filter (where score_date <= getvariable('build_date') - 7) as ago_7,
    arg_max(platform_score, score_date) filter (where score_date <= getvariable('build_date') - 30) as ago_30
  from score_rows_from(getvariable('build_date') - 30)
  where score_date <= getvariable('build_date') - 1
  group by platform_id
)
select
  a.platform_id, l.days,
  if(d.score_date is null, null, coalesce(case l.days when 1 then h.ago_1 when 7 then h.ago_7 else h.ago_30 end, 0)) as score_ago
from int_accounts a
cross join lookbacks l
left join stg_score_history_dates d on d.score_date = getvariable('build_date') - l.days
left join as_of h on h.platform_id = a.platform_id;
