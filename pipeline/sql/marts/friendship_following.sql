-- friendship_following.parquet — grain: one row per follow/unfollow event of a monitored source whose followed
-- account is tracked and has a non-empty name (outgoing log).
-- columns: source_idx, source_id, followed_idx, followed_id, action ('Following'|'Unfollowing'), event_date,
--   platform_score (the main score, or graph_score when the main one is 0)
-- sort: source_idx, action, followed_id compared as a string, event_date desc
create or replace table friendship_following as
select
  s.account_idx as source_idx, e.source_id, f.account_idx as followed_idx, e.target_id as followed_id,
  if(e.kind = 'follow', 'Following', 'Unfollowing') as action, e.event_date,
  if(sc.platform_score = 0, coalesce(f.graph_score, 0), sc.platform_score) as platform_score
from int_follow_events e
join int_accounts s on s.platform_id = e.source_id and s.is_monitored
join int_accounts f on f.platform_id = e.target_id and f.is_tracked and coalesce(f.name, '') <> ''
join int_scores sc on sc.platform_id = e.target_id
order by source_idx, action, e.target_id::varchar, e.event_date desc;
