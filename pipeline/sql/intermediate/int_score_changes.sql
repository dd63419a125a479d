-- One row per (account, look-back of 7 or 30 days, smart follower that arrived or left since build_date - days),
-- with what that follower moved: for an arrival, the points the account would lose without its share today; for a
-- departure, the (negative) points its share would add today, from the follower's trust and out-degree today.
-- Followers then = the follows the latest scan of each smart follower on or before that day held (as int_growth).
create or replace table int_score_changes as
with lookbacks as (select unnest([7, 30]) as days),
scan_then as (
  select l.days, s.source_id, max(s.scan_seq) as scan_seq
  from int_scans s
  cross join lookbacks l
  where s.scan_date <= getvariable('build_date') - l.days
  group by l.days, s.source_id
),
edges_then as (
  select t.days, i.source_id, i.target_id
  from int_follow_islands i
  join scan_then t on t.source_id = i.source_id and t.scan_seq between i.start_seq and i.end_seq
  join int_accounts f on f.platform_id = i.source_id and f.is_smart
),
edges_now as (select l.days, e.source_id, e.target_id from int_smart_edges e cross join lookbacks l),
arrived as (select * from edges_now except select * from edges_then),
departed as (select * from edges_then except select * from edges_now),
outdegree as (select source_id, count(*) as outdegree from int_smart_edges group by source_id)
select a.days, a.target_id, a.source_id as follower_id, 'arrived' as change,
  score_points(coalesce(t.inflow, 0)) - score_points(coalesce(t.inflow, 0) - coalesce(c.share, 0)) as points
from arrived a
left join int_score_contributions c on c.target_id = a.target_id and c.source_id = a.source_id
left join int_trust t on t.platform_id = a.target_id
union all
select d.days, d.target_id, d.source_id, 'left',
  score_points(coalesce(t.inflow, 0))
    - score_points(coalesce(t.inflow, 0) + saturated_share(coalesce(f.trust, 0), coalesce(o.outdegree, 0) + 1))
from departed d
left join int_trust t on t.platform_id = d.target_id
left join int_trust f on f.platform_id = d.source_id
left join outdegree o on o.source_id = d.source_id;
