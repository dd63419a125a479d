-- One row per account known to the snapshot: full records ∪ friend-only records, as of build_date.
-- account_idx is the dense 0-based position by platform_id. followers_count is, for monitored accounts, the latest
-- follower-count scan of the 30 days ending on build_date (counted_by, int_follower_counts.sql: a night reads a
-- month of counts, not the whole series), else the profile value (friend-only records: the friend record's value).
create or replace table int_accounts as
with latest_count as (
  select platform_id, arg_max(followers_count, scan_date) as followers_count
  from int_follower_counts
  where counted_by(scan_date, getvariable('build_date'))
  group by platform_id
),
known as (
  select
    coalesce(a.platform_id, f.platform_id) as platform_id,
    a.platform_id is not null as is_tracked,
    coalesce(a.username, f.username) as username,
    a.slug,
    if(a.platform_id is not null, a.name, f.name) as name,
    if(a.platform_id is not null, a.description, f.description) as description,
    if(a.platform_id is not null, a.profile_image, f.profile_image) as profile_image,
    coalesce(a.blue_verified, false) as blue_verified,
    coalesce(a.is_monitored, false) as is_monitored,
    coalesce(a.is_active, true) as is_active,
    coalesce(a.is_suspended, false) as is_suspended,
    f.graph_score,
    case
      when a.platform_id is null then f.followers_count
      when a.is_monitored then coalesce(c.followers_count, a.profile_followers_count)
      else a.profile_followers_count
    end as followers_count
  from stg_accounts a
  full outer join stg_friends f on f.platform_id = a.platform_id
  left join latest_count c on c.platform_id = a.platform_id
)
select
  (row_number() over (order by platform_id) - 1)::integer as account_idx,
  *,
  is_monitored and is_active and not is_suspended as is_smart
from known
order by platform_id;
