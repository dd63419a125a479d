-- One row per (target, smart follower) with an active follow, with subscribed_at = scanned_at of the first scan of
-- the run of scans that still holds the follow.
create or replace table int_smart_followers as
select e.target_id, e.source_id as follower_id, r.subscribed_at
from int_smart_edges e
join int_runs r on r.source_id = e.source_id and r.target_id = e.target_id and r.valid_to is null;
