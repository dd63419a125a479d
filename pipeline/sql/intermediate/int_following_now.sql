-- One row per active follow edge as of build_date: the latest scan of each monitored account on or before
-- build_date lists whom it follows. Self-follows are ignored.
create or replace table int_following_now as
select f.source_id, unnest(list_distinct(f.following_ids)) as target_id
from stg_follow_scans f
join int_scans s on s.source_id = f.source_id and s.scan_date = f.scan_date and s.scan_seq = s.scan_count;
delete from int_following_now where source_id = target_id;
