-- Every mart's key identifies one row (keys are rendered as text for the offending groups only). score_dates is
-- checked by sort_orders, in one pass: strictly ordered rows have distinct keys.
select 'accounts' as mart, platform_id::varchar as key
from (select platform_id from accounts group by platform_id having count(*) > 1)
union all
select 'previous_usernames', platform_id || '/' || username
from (select platform_id, username from previous_usernames group by platform_id, username having count(*) > 1)
union all
select 'account_categories', platform_id || '/' || category_id
from (select platform_id, category_id from account_categories group by platform_id, category_id having count(*) > 1)
union all
select 'account_tags', platform_id || '/' || tag_id
from (select platform_id, tag_id from account_tags group by platform_id, tag_id having count(*) > 1)
union all
select 'smart_followers', target_id || '/' || follower_id
from (select target_id, follower_id from smart_followers group by target_id, follower_id having count(*) > 1)
union all
select 'categorized_followers_count', target_id || '/' || ordinal
from (select target_id, ordinal from categorized_followers_count group by target_id, ordinal having count(*) > 1)
union all
select 'friendship_followed', target_id || '/' || follower_id || '/' || event_date
from (select target_id, follower_id, event_date from friendship_followed group by target_id, follower_id, event_date having count(*) > 1)
union all
select 'friendship_following', source_id || '/' || followed_id || '/' || event_date
from (select source_id, followed_id, event_date from friendship_following group by source_id, followed_id, event_date having count(*) > 1)
union all
select 'smart_follows', days || '/' || bucket || '/' || platform_id
from (select days, bucket, platform_id from smart_follows group by days, bucket, platform_id having count(*) > 1)
union all
select 'trending', days || '/' || metric || '/' || platform_id
from (select days, metric, platform_id from trending group by days, metric, platform_id having count(*) > 1)
union all
select 'top_researched', days || '/' || platform_id
from (select days, platform_id from top_researched group by days, platform_id having count(*) > 1);
