-- One row per account per scanned day folded by this build (raw follower_counts, days ingest_from..build_date).
create or replace view stg_follower_counts as
select scan_date, account_id as platform_id, followers_count
from raw_follower_counts
where scan_date between getvariable('ingest_from') and getvariable('build_date');
