-- One row per account per scanned day (raw follower_counts.parquet).
create or replace view stg_follower_counts as
select account_id as platform_id, scan_date, followers_count
from read_parquet(getvariable('raw_dir') || '/follower_counts.parquet');
