-- One row per active follow edge whose follower (source) is smart: monitored, active, not suspended, and whose
-- followed account (target) the snapshot knows. This is the graph the score propagates over and the set of "smart
-- followers". The open runs of an account that has left the monitored set, or that point at an account gone from the
-- reference tables, stay in the state (they resume if it comes back) and carry nothing.
create or replace table int_smart_edges as
select e.source_id, e.target_id
from int_following_now e
join int_accounts a on a.platform_id = e.source_id and a.is_smart
where exists (select 1 from int_accounts t where t.platform_id = e.target_id);
