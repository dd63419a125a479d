-- One row per account: platform_score (0..1000, 2 decimals), rank among tracked accounts, and audience (the sum of
-- its followers' weights, 1e-9 trusted followers, int_score_contributions).
-- The score reads the trust an account's smart audience passes to it (second-pass shares), not the seed trust it
-- holds itself, so it rates the audience: an account nobody smart follows scores 0, seed or not. It counts the
-- trusted followers, each weighted by the trust it passes (1 − exp(−share / trusted_share)): an established follower
-- counts as one whatever its own standing, a barely trusted one as a fraction. The scale is absolute:
--   score = min(1000, 1000 · ln(1 + audience) / ln(1 + score_scale_full))
-- so it depends neither on how many accounts the snapshot holds nor on the best account.
create or replace table int_scores as
with audience as (
  select target_id as platform_id, sum(weight)::bigint as audience from int_score_contributions group by target_id
),
scored as (
  select
    a.platform_id, a.is_tracked, coalesce(w.audience, 0) as audience,
    round(score_points(coalesce(w.audience, 0)), 2) as platform_score
  from int_accounts a
  left join audience w on w.platform_id = a.platform_id
)
select
  platform_id, platform_score,
  if(is_tracked, row_number() over (partition by is_tracked order by platform_score desc, platform_id), null)::integer
    as rank,
  audience
from scored;
