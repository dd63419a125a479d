-- One row per account and look-back (1, 7, 30 days): the score on build_date - days from the score history.
-- NULL when that date has no history file; 0 when it has one without the account (history keeps scores > 0).
create or replace table int_score_ago as
with lookbacks as (select unnest([1, 7, 30]) as days)
select
  a.platform_id, l.days,
  if(d.score_date is null, null, coalesce(h.platform_score, 0)) as score_ago
from int_accounts a
cross join lookbacks l
left join stg_score_history_dates d on d.score_date = getvariable('build_date') - l.days
left join stg_score_history h on h.score_date = d.score_date and h.platform_id = a.platform_id;
