-- One row per scan of one monitored account's following list (raw follow_scans.parquet).
create or replace view stg_follow_scans as
select account_id as source_id, scan_date, scanned_at, following_ids
from read_parquet(getvariable('raw_dir') || '/follow_scans.parquet');
