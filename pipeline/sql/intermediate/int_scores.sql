-- One row per account: platform_score (0..1000, 2 decimals) and rank among tracked accounts.
-- The score reads the trust an account's smart audience passes to it (second-pass inflow), not the seed trust it
-- holds itself, so it rates the audience: an account nobody smart follows scores 0, seed or not.
-- The scale is absolute, in follower caps (the most one follower passes): inflow / cap counts the audience in fully
-- trusted followers, and 1000 is an audience worth score_scale_full of them:
--   score = min(1000, 1000 · ln(1 + inflow / cap) / ln(1 + score_scale_full))
-- so it depends neither on how many accounts the snapshot holds nor on the best account's inflow.
create or replace table int_scores as
with scored as (
  select
    a.platform_id, a.is_tracked,
    round(score_points(coalesce(t.inflow, 0)), 2) as platform_score
  from int_accounts a
  left join int_trust t on t.platform_id = a.platform_id
)
select
  platform_id, platform_score,
  if(is_tracked, row_number() over (partition by is_tracked order by platform_score desc, platform_id), null)::integer
    as rank
from scored;
