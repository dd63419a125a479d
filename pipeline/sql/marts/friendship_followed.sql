-- friendship_followed.parquet — grain: one row per follow/unfollow event whose follower is smart (incoming log).
-- columns: target_idx, target_id, follower_idx, follower_id, action ('Followed'|'Unfollowed'), event_date
-- sort: target_idx, event_date desc, follower_id, action
create or replace table friendship_followed as
select
  t.account_idx as target_idx, e.target_id, f.account_idx as follower_idx, e.source_id as follower_id,
  if(e.kind = 'follow', 'Followed', 'Unfollowed') as action, e.event_date
from int_follow_events e
join int_accounts f on f.platform_id = e.source_id and f.is_smart
join int_accounts t on t.platform_id = e.target_id
order by target_idx, e.event_date desc, follower_id, action;
