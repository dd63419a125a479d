-- Every score the snapshot serves is within 0..1000 and has at most 2 decimals.
select 'accounts' as mart, platform_id::varchar as id, platform_score as score from accounts
where platform_score not between 0 and 1000 or platform_score <> round(platform_score, 2)
union all
select 'smart_followers', follower_id::varchar, follower_score from smart_followers
where follower_score not between 0 and 1000
union all
select 'friendship_following', followed_id::varchar, platform_score from friendship_following
where platform_score is null or platform_score not between 0 and 1000
union all
select 'smart_follows', platform_id::varchar, platform_score from smart_follows
where platform_score not between 0 and 1000 or platform_score_diff not between -1000 and 1000;
