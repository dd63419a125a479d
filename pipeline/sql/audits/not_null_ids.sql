-- Ids and row numbers the server indexes by are never NULL.
select 'accounts' as mart, account_idx::varchar as row from accounts
where account_idx is null or platform_id is null or username is null or platform_score is null
  or followers_count is null or (is_tracked and rank is null)
union all
select 'smart_followers', target_id::varchar from smart_followers
where target_idx is null or follower_idx is null or follower_id is null or subscribed_at is null
union all
select 'friendship_followed', target_id::varchar from friendship_followed where target_idx is null or follower_idx is null
union all
select 'friendship_following', source_id::varchar from friendship_following where source_idx is null or followed_idx is null
union all
select 'smart_follows', platform_id::varchar from smart_follows where account_idx is null or platform_id is null;
