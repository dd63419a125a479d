-- Every mart's key identifies one row.
select 'accounts' as mart, platform_id::varchar as key from accounts group by platform_id having count(*) > 1
union all
select 'previous_usernames', platform_id || '/' || username from previous_usernames group by all having count(*) > 1
union all
select 'account_categories', platform_id || '/' || category_id from account_categories group by all having count(*) > 1
union all
select 'account_tags', platform_id || '/' || tag_id from account_tags group by all having count(*) > 1
union all
select 'smart_followers', target_id || '/' || follower_id from smart_followers group by all having count(*) > 1
union all
select 'categorized_followers_count', target_id || '/' || ordinal
from categorized_followers_count group by all having count(*) > 1
union all
select 'followers_count_history', platform_id || '/' || date from followers_count_history group by all having count(*) > 1
union all
select 'friendship_followed', target_id || '/' || follower_id || '/' || event_date
from friendship_followed group by all having count(*) > 1
union all
select 'friendship_following', source_id || '/' || followed_id || '/' || event_date
from friendship_following group by all having count(*) > 1
union all
select 'smart_follows', days || '/' || bucket || '/' || platform_id from smart_follows group by all having count(*) > 1
union all
select 'tweets', tweet_id::varchar from tweets group by tweet_id having count(*) > 1
union all
select 'mentions', target_id || '/' || tweet_idx from mentions group by all having count(*) > 1;
