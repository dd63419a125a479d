-- One row per follow scan on or before build_date, numbered per scanned account (scan_seq 1 = baseline scan).
-- The following lists stay in stg_follow_scans; this table is the small index the follow models join on.
create or replace table int_scans as
select
  source_id, scan_date, scanned_at,
  row_number() over (partition by source_id order by scan_date) as scan_seq,
  count(*) over (partition by source_id) as scan_count
from stg_follow_scans
where scan_date <= getvariable('build_date');
