-- One row per uninterrupted run of consecutive scans (scan_seq start..end) in which a source follows a target.
-- A run starting after the baseline scan is a follow; a run ending before the latest scan is followed by an unfollow.
create or replace table int_follow_islands as
with presence as (
  select distinct f.source_id, unnest(f.following_ids) as target_id, s.scan_seq
  from stg_follow_scans f
  join int_scans s on s.source_id = f.source_id and s.scan_date = f.scan_date
),
numbered as (
  select *, scan_seq - row_number() over (partition by source_id, target_id order by scan_seq) as island
  from presence
  where source_id <> target_id
)
select source_id, target_id, min(scan_seq) as start_seq, max(scan_seq) as end_seq
from numbered
group by source_id, target_id, island;
