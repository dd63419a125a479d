-- One row per (target, smart follower) with an active follow, with subscribed_at = scanned_at of the first scan of
-- the run of scans that still holds the follow.
create or replace table int_smart_followers as
select e.target_id, e.source_id as follower_id, first_scan.scanned_at as subscribed_at
from int_smart_edges e
join int_follow_islands i on i.source_id = e.source_id and i.target_id = e.target_id
join int_scans first_scan on first_scan.source_id = i.source_id and first_scan.scan_seq = i.start_seq
where i.end_seq = first_scan.scan_count;
