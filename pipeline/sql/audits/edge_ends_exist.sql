-- Every smart edge starts at a smart account and ends at a known account, and has its subscribed_at; smart followers
-- point at their accounts' rows. (Unknown ids in scans are refused with their raw file and row before any model runs;
-- the open runs of an account that left the monitored set, or of a followed account gone from the reference tables,
-- are history, not edges: int_smart_edges leaves them out.)
select 'smart_edges' as edge, source_id::varchar as source, target_id::varchar as target, 'source is not smart' as problem
from int_smart_edges e
where not exists (select 1 from int_accounts a where a.platform_id = e.source_id and a.is_smart)
union all
select 'smart_edges', source_id::varchar, target_id::varchar, 'unknown followed id'
from int_smart_edges e
where not exists (select 1 from int_accounts a where a.platform_id = e.target_id)
union all
select 'smart_edges', e.source_id::varchar, e.target_id::varchar, 'no subscribed_at'
from int_smart_edges e
where not exists (
  select 1 from int_smart_followers f where f.target_id = e.target_id and f.follower_id = e.source_id)
union all
select 'smart_followers', follower_id::varchar, target_id::varchar, 'idx does not match accounts'
from smart_followers s
where not exists (select 1 from accounts a where a.account_idx = s.target_idx and a.platform_id = s.target_id)
   or not exists (select 1 from accounts a where a.account_idx = s.follower_idx and a.platform_id = s.follower_id);
