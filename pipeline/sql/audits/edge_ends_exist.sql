-- Every follow edge starts at a monitored account and ends at a known account (an unknown followed id is a data
-- error), and every active smart edge has its subscribed_at.
select 'following_now' as edge, source_id::varchar as source, target_id::varchar as target, 'unknown followed id' as problem
from int_following_now e
where not exists (select 1 from int_accounts a where a.platform_id = e.target_id)
union all
select 'following_now', source_id::varchar, target_id::varchar, 'source is not monitored'
from int_following_now e
where not exists (select 1 from int_accounts a where a.platform_id = e.source_id and a.is_monitored)
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
