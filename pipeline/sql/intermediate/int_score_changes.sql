-- One row per (account, look-back of 7 or 30 days, smart follower that arrived or left since build_date - days),
-- with what that follower moved: for an arrival, the points the account would lose without its share today; for a
-- departure, the (negative) points its share would add today, from the follower's trust and out-degree today.
-- Followers then = the follows the latest scan of each smart follower on or before that day held (as int_growth);
-- only the follows that changed are read, so the cost follows the day's churn, not the size of the graph.
create or replace table int_score_changes as
with lookbacks as (select unnest([7, 30]) as days),
-- per follower and look-back: the position of its latest scan on or before that day (none: it was not scanned yet)
scan_then as (
  select l.days, s.source_id, max(s.scan_seq) as scan_seq, max(s.scanned_at) as scanned_at
  from int_scans s
  cross join lookbacks l
  where s.scan_date <= getvariable('build_date') - l.days
  group by l.days, s.source_id
),
-- runs of scans holding a follow that ended before the follower's latest scan: the unfollows (a small set)
ended as (
  select i.source_id, i.target_id, i.start_seq, i.end_seq
  from int_follow_islands i
  join (select distinct source_id, scan_count from int_scans) c on c.source_id = i.source_id
  where i.end_seq < c.scan_count
),
-- a current smart follow arrived when the run of scans holding it began after the follower's scan then
-- (subscribed_at is the first scan of that run), unless an earlier run already held it then (unfollowed and followed
-- again within the window)
arrived as (
  select l.days, f.follower_id as source_id, f.target_id
  from int_smart_followers f
  cross join lookbacks l
  left join scan_then t on t.days = l.days and t.source_id = f.follower_id
  where (t.scanned_at is null or f.subscribed_at > t.scanned_at)
    and not exists (select 1 from ended x where x.source_id = f.follower_id and x.target_id = f.target_id
                    and t.scan_seq between x.start_seq and x.end_seq)
),
-- a follow the follower's scan then held left when no run holds it now (followers smart today, as int_growth)
departed as (
  select t.days, x.source_id, x.target_id
  from ended x
  join scan_then t on t.source_id = x.source_id and t.scan_seq between x.start_seq and x.end_seq
  join int_accounts a on a.platform_id = x.source_id and a.is_smart
  where not exists (select 1 from int_smart_edges e where e.source_id = x.source_id and e.target_id = x.target_id)
)
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
left join int_score_outdegree o on o.source_id = d.source_id;
