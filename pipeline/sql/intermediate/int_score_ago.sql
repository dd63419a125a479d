-- One row per account and look-back (1, 7, 30 days): the score on build_date - days from the score history (its
-- last row on or before that date). NULL when that date was never scored; 0 when it was and the account had no score.
create or replace table int_score_ago as
with lookbacks as (select unnest([1, 7, 30]) as days),
as_of as (
  select l.days, h.platform_id, arg_max(h.platform_score, h.score_date) as platform_score
  from stg_score_history h
  join lookbacks l on h.score_date <= getvariable('build_date') - l.days
  group by l.days, h.platform_id
)
select
  a.platform_id, l.days,
  if(d.score_date is null, null, coalesce(h.platform_score, 0)) as score_ago
from int_accounts a
cross join lookbacks l
left join stg_score_history_dates d on d.score_date = getvariable('build_date') - l.days
left join as_of h on h.days = l.days and h.platform_id = a.platform_id;
