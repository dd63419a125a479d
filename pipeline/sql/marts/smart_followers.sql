-- smart_followers.parquet — grain: one row per (target account, smart follower) with an active follow.
-- columns: target_idx, follower_idx, target_id, follower_id, subscribed_at, follower_score, follower_followers_count,
--   pos_by_followers, pos_by_subscribed
-- sort: target_idx, follower_score desc, follower_id asc; pos_by_* are 0-based positions within the target for
--   (follower_followers_count desc, follower_id) and (subscribed_at desc, follower_id)
create or replace table smart_followers as
with rows as (
  select
    t.account_idx as target_idx, f.account_idx as follower_idx, sf.target_id, sf.follower_id,
    sf.subscribed_at::timestamp_ms::timestamp as subscribed_at,
    s.platform_score as follower_score, f.followers_count as follower_followers_count
  from int_smart_followers sf
  join int_accounts t on t.platform_id = sf.target_id
  join int_accounts f on f.platform_id = sf.follower_id
  join int_scores s on s.platform_id = sf.follower_id
)
select
  *,
  (row_number() over (partition by target_idx order by follower_followers_count desc, follower_id) - 1)::integer
    as pos_by_followers,
  (row_number() over (partition by target_idx order by subscribed_at desc, follower_id) - 1)::integer
    as pos_by_subscribed
from rows
order by target_idx, follower_score desc, follower_id;
