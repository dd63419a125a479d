-- One row per follow/unfollow event from consecutive scans: kind 'follow' on the scan_date of the first scan of a
-- run (not the baseline scan), 'unfollow' on the scan_date of the first scan after a run.
create or replace table int_follow_events as
select i.source_id, i.target_id, 'follow' as kind, s.scan_date as event_date
from int_follow_islands i
join int_scans s on s.source_id = i.source_id and s.scan_seq = i.start_seq
where i.start_seq > 1
union all
select i.source_id, i.target_id, 'unfollow' as kind, s.scan_date as event_date
from int_follow_islands i
join int_scans s on s.source_id = i.source_id and s.scan_seq = i.end_seq + 1;
