-- One night: the state's runs as of the day before, changed by the day's scans (one per scanned source).
-- A scanned source's open run whose target is missing from today's list is closed today (an unfollow); a target in
-- today's list without an open run opens a run today (a follow; the baseline when the source was never scanned
-- before). Sources not scanned today keep their runs. int_runs_opened / int_runs_closed are the day's changes.
create or replace table int_day_lists as
select source_id, unnest(list_distinct(following_ids)) as target_id from stg_follow_scans;
delete from int_day_lists where source_id = target_id;

-- a source is scanned for the first time when the state has never scanned it (state_follow_sources: one row per
-- source, not every stored scan)
create or replace table int_day_sources as
select s.source_id, s.scan_date, s.scanned_at, p.source_id is null as is_first
from stg_follow_scans s
left join state_follow_sources p on p.source_id = s.source_id;

create or replace table int_runs_closed as
select r.source_id, r.target_id, r.valid_from, getvariable('build_date') as valid_to
from state_runs r
semi join int_day_sources s on s.source_id = r.source_id
anti join int_day_lists l on l.source_id = r.source_id and l.target_id = r.target_id
where r.valid_to is null;

create or replace table int_runs_opened as
select l.source_id, l.target_id, s.scanned_at as subscribed_at, s.scan_date as valid_from, null::date as valid_to,
  s.is_first as is_baseline
from int_day_lists l
join int_day_sources s on s.source_id = l.source_id
anti join (select source_id, target_id from state_runs where valid_to is null) o
  on o.source_id = l.source_id and o.target_id = l.target_id;
drop table int_day_lists;
