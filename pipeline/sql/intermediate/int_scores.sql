-- One row per account: platform_score (0..1000, 2 decimals), rank among tracked accounts, audience (the sum of its
-- followers' weights, 1e-9 trusted followers, int_score_contributions), size_followers and size_divisor.
-- The score reads which of an account's smart followers hold trust (second pass), not the seed trust it holds
-- itself, so it rates the audience: an account nobody smart follows scores 0, seed or not. It counts the trusted
-- followers (those holding trust they did not get from it, from one trust unit, trusted_share, on: each counts as
-- one) against the size of the whole audience: size_followers is the median of the account's follower counts over the
-- score_size_days days ending on build_date (its followers_count when none was counted then), and
--   score = min(1000, 1000 · ln(1 + audience / size_divisor(size_followers)) / ln(1 + score_scale_full))
-- The scale is absolute: it depends neither on how many accounts the snapshot holds nor on the best account.
create or replace table int_scores as
with audience as (
  select target_id as platform_id, sum(weight)::bigint as audience from int_score_contributions group by target_id
),
size as (
  select platform_id, median(followers_count) as size_followers
  from int_follower_counts
  where scan_date <= getvariable('build_date')
    and scan_date > getvariable('build_date') - getvariable('score_size_days')
  group by platform_id
),
sized as (
  select
    a.platform_id, a.is_tracked, coalesce(w.audience, 0) as audience,
    coalesce(z.size_followers, a.followers_count, 0)::double as size_followers
  from int_accounts a
  left join audience w on w.platform_id = a.platform_id
  left join size z on z.platform_id = a.platform_id
),
divided as (select *, size_divisor(size_followers) as size_divisor from sized),
scored as (select *, round(score_points(audience, size_divisor), 2) as platform_score from divided)
select
  platform_id, platform_score,
  if(is_tracked, row_number() over (partition by is_tracked order by platform_score desc, platform_id), null)::integer
    as rank,
  audience, size_followers, size_divisor
from scored;
