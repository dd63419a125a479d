-- A fold from scratch: every run of every source from all its scans up to build_date at once. One row per
-- uninterrupted run of consecutive scans (scan_seq start..end) in which a source follows a target; most pairs are
-- one unbroken run (seen in as many scans as their first-to-last span) and take a hash aggregate, only pairs with
-- gaps pay for the window that numbers their runs. int_runs_opened = every run, int_runs_closed = none.
create or replace table int_scan_seq as
select source_id, scan_date, scanned_at,
  row_number() over (partition by source_id order by scan_date) as scan_seq,
  count(*) over (partition by source_id) as scan_count
from stg_follow_scans;

create or replace table int_follow_presence as
select f.source_id, unnest(list_distinct(f.following_ids)) as target_id, s.scan_seq
from stg_follow_scans f
join int_scan_seq s on s.source_id = f.source_id and s.scan_date = f.scan_date;
delete from int_follow_presence where source_id = target_id;

create or replace table int_islands as
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

create or replace table int_runs_opened as
select i.source_id, i.target_id, first_scan.scanned_at as subscribed_at, first_scan.scan_date as valid_from,
  next_scan.scan_date as valid_to, i.start_seq = 1 as is_baseline
from int_islands i
join int_scan_seq first_scan on first_scan.source_id = i.source_id and first_scan.scan_seq = i.start_seq
left join int_scan_seq next_scan on next_scan.source_id = i.source_id and next_scan.scan_seq = i.end_seq + 1;
drop table int_islands;
drop table int_scan_seq;

create or replace table int_runs_closed (source_id ubigint, target_id ubigint, valid_from date, valid_to date);
