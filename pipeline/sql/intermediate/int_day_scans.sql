-- One row per scan folded by this build (state table follow_scans): its day, time and list length.
create or replace table int_day_scans as
select scan_date, source_id, scanned_at, len(list_distinct(following_ids))::integer as following_count
from stg_follow_scans;
