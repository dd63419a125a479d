-- One row per uninterrupted run of consecutive scans (scan_seq start..end) in which a source follows a target.
-- A run starting after the baseline scan is a follow; a run ending before the latest scan is followed by an unfollow.
-- Most pairs are one unbroken run (seen in as many scans as their first-to-last span): those take a hash aggregate;
-- only pairs with gaps pay for the window that numbers their runs.
create or replace table int_follow_presence as
select f.source_id, unnest(list_distinct(f.following_ids)) as target_id, s.scan_seq
from stg_follow_scans f
join int_scans s on s.source_id = f.source_id and s.scan_date = f.scan_date;
delete from int_follow_presence where source_id = target_id;

create or replace table int_follow_islands as
with pairs as (
  select source_id, target_id, min(scan_seq) as start_seq, max(scan_seq) as end_seq, count(*) as scans
  from int_follow_presence
  group by source_id, target_id
),
gapped as (
  select p.source_id, p.target_id, p.scan_seq,
    p.scan_seq - row_number() over (partition by p.source_id, p.target_id order by p.scan_seq) as island
  from int_follow_presence p
  semi join (select source_id, target_id from pairs where scans <> end_seq - start_seq + 1) g
    on g.source_id = p.source_id and g.target_id = p.target_id
)
select source_id, target_id, start_seq, end_seq from pairs where scans = end_seq - start_seq + 1
union all
select source_id, target_id, min(scan_seq), max(scan_seq) from gapped group by source_id, target_id, island;
drop table int_follow_presence;
