-- trending.parquet — grain: one row per (days, metric, account) with a positive growth; metric smart_followers
-- (current smart followers − smart followers as of build_date − days) or score (score − score days ago; accounts
-- without a stored old score are left out). Not capped: the server filters by category/tag, then caps at 1000.
-- columns: days, metric, rank, account_idx, platform_id, growth, platform_score_diff, smart_followers_diff
-- sort: days, metric, rank (= growth desc, platform_id asc)
create or replace table trending as
with metrics as (
  select days, 'smart_followers' as metric, platform_id, smart_followers_diff::double as growth,
    smart_followers_diff, platform_score_diff
  from int_growth
  union all
  select days, 'score', platform_id, platform_score_diff, smart_followers_diff, platform_score_diff
  from int_growth
  where platform_score_diff is not null
)
select
  m.days::integer as days, m.metric,
  row_number() over (partition by m.days, m.metric order by m.growth desc, m.platform_id)::integer as rank,
  a.account_idx, m.platform_id, m.growth,
  coalesce(m.platform_score_diff, 0) as platform_score_diff, m.smart_followers_diff::bigint as smart_followers_diff
from metrics m
join int_accounts a on a.platform_id = m.platform_id
where m.growth > 0
order by days, metric, rank;
