-- Every run as of build_date: the state's runs with today's closings applied, plus the runs opened today.
create or replace table int_runs as
select r.source_id, r.target_id, r.subscribed_at, r.valid_from, coalesce(r.valid_to, c.valid_to) as valid_to,
  r.is_baseline
from state_runs r
left join int_runs_closed c on c.source_id = r.source_id and c.target_id = r.target_id and c.valid_from = r.valid_from
union all
select source_id, target_id, subscribed_at, valid_from, valid_to, is_baseline from int_runs_opened;
