-- One row per follow scan folded by this build: raw_follow_scans is the day folder's file (or, for a fold from
-- scratch, every day's file or the single-folder layout's), cut to the days being folded (ingest_from..build_date).
create or replace view stg_follow_scans as
select account_id as source_id, scan_date, scanned_at, following_ids
from raw_follow_scans
where scan_date between getvariable('ingest_from') and getvariable('build_date');
