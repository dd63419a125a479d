-- One row per account: platform_score (0..1000, 2 decimals) and rank among tracked accounts.
-- The score reads the trust an account's smart audience passes to it (inflow after the last iteration), not the
-- seed trust it holds itself, so it rates the audience: an account nobody smart follows scores 0, seed or not.
-- score = 1000 · ln(1 + inflow·N) / ln(1 + max_inflow·N), inflow as a fraction of all trust, N = number of accounts:
-- monotone, log-scaled so the mid-range is readable, 1000 for the best audience, 0 when unreached.
create or replace table int_scores as
with scale as (
  select (select count(*) from int_accounts) / 1e15 as per_unit, max(inflow) as max_inflow from int_trust
),
scored as (
  select
    a.platform_id, a.is_tracked,
    coalesce(round(1000 * ln(1 + t.inflow * scale.per_unit) / ln(1 + scale.max_inflow * scale.per_unit), 2), 0)
      as platform_score
  from int_accounts a
  left join int_trust t on t.platform_id = a.platform_id
  cross join scale
)
select
  platform_id, platform_score,
  if(is_tracked, row_number() over (partition by is_tracked order by platform_score desc, platform_id), null)::integer
    as rank
from scored;
