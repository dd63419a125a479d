-- One row per active follow edge whose follower (source) is smart: monitored, active, not suspended.
-- This is the graph the score propagates over and the set of "smart followers".
create or replace table int_smart_edges as
select e.source_id, e.target_id
from int_following_now e
join int_accounts a on a.platform_id = e.source_id and a.is_smart;
