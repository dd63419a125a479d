-- accounts.parquet — grain: one row per account known to the snapshot (full records ∪ friend-only records).
-- columns: account_idx, platform_id, username, slug, name, description, profile_image, blue_verified, is_tracked,
--   is_monitored, is_active, is_suspended, is_smart, platform_score, rank, graph_score, followers_count,
--   smart_followers_count, score_1d_ago, score_7d_ago, score_30d_ago
-- sort: account_idx (= platform_id ascending)
create or replace table accounts as
with smart_counts as (
  select target_id as platform_id, count(*) as smart_followers_count from int_smart_followers group by target_id
),
score_ago as (
  select
    platform_id,
    any_value(score_ago) filter (where days = 1) as score_1d_ago,
    any_value(score_ago) filter (where days = 7) as score_7d_ago,
    any_value(score_ago) filter (where days = 30) as score_30d_ago
  from int_score_ago
  group by platform_id
)
select
  a.account_idx, a.platform_id, a.username, a.slug, a.name, coalesce(a.description, '') as description,
  a.profile_image, a.blue_verified, a.is_tracked, a.is_monitored, a.is_active, a.is_suspended, a.is_smart,
  s.platform_score, s.rank, a.graph_score, a.followers_count,
  coalesce(c.smart_followers_count, 0)::integer as smart_followers_count,
  h.score_1d_ago, h.score_7d_ago, h.score_30d_ago
from int_accounts a
join int_scores s on s.platform_id = a.platform_id
left join smart_counts c on c.platform_id = a.platform_id
left join score_ago h on h.platform_id = a.platform_id
order by a.account_idx;
