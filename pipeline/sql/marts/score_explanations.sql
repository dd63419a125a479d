-- score_explanations.parquet — grain: one row per account (as accounts.parquet): the components of its score and
-- the reasons it moved over 7 and 30 days.
-- columns:
--   account_idx, platform_id, platform_score, rank
--   audience: the sum of the followers' weights, the audience counted in trusted followers; 4 decimals
--   size_followers: the follower count the score weighs the audience against (the median of the last size_days
--     days' counts); size_divisor = (1 + size_followers / size_prior)^size_exponent (4 decimals), and
--     score = 1000 · ln(1 + audience / size_divisor) / ln(1 + scale_full_followers), at most 1000
--   smart_followers (all), trusted_followers (holding trust), saturated_followers (weighing 1: every trusted
--   follower), reciprocal_followers (trusted followers followed back), seed_followers (seeds among the trusted followers)
--   seed_share, top_follower_share, top3_share: fractions of the audience from seeds, from the weightiest follower
--     and from the three weightiest (4 decimals; 0 without audience)
--   is_seed, seed_standing (first-pass inflow, seed units), seed_endowment (second-pass seed trust, seed units);
--     NULL when not a seed
--   for N in 7 and 30: score_Nd_ago (NULL when that day was never scored), score_change_Nd, arrived_Nd, left_Nd
--     (smart followers that arrived and left since), trusted_Nd, untrusted_Nd (followers that stayed, which trust
--     started and stopped reaching since), arrived_points_Nd, left_points_Nd, trusted_points_Nd,
--     untrusted_points_Nd (the sums of what they moved, see score_changes.parquet), other_points_Nd (the rest of the
--     change: the follower count, and the weights of followers whose change is not listed); all NULL when
--     score_Nd_ago is
-- sort: account_idx
create or replace table score_explanations as
with followers as (
  select target_id as platform_id, count(*) as smart_followers from int_smart_edges group by target_id
),
contributions as (
  select
    c.target_id as platform_id,
    count(*) as trusted_followers,
    count(*) filter (where c.weight >= 0.95 * getvariable('score_unit')) as saturated_followers,
    count(*) filter (where c.reciprocal) as reciprocal_followers,
    count(*) filter (where k.platform_id is not null) as seed_followers,
    sum(c.weight) as audience,
    sum(c.weight) filter (where k.platform_id is not null) as seed_audience,
    max(c.weight) as top_weight,
    max(c.weight, 3) as top3
  from int_score_contributions c
  left join int_score_seeds k on k.platform_id = c.source_id
  group by c.target_id
),
changes as (
  select target_id as platform_id, days,
    count(*) filter (where change = 'arrived') as arrived,
    count(*) filter (where change = 'left') as departed,
    count(*) filter (where change = 'trusted') as trusted,
    count(*) filter (where change = 'untrusted') as untrusted,
    coalesce(sum(points) filter (where change = 'arrived'), 0) as arrived_points,
    coalesce(sum(points) filter (where change = 'left'), 0) as left_points,
    coalesce(sum(points) filter (where change = 'trusted'), 0) as trusted_points,
    coalesce(sum(points) filter (where change = 'untrusted'), 0) as untrusted_points
  from int_score_changes
  group by target_id, days
),
-- the windows whose look-back day was scored: the others have no change, and no parts of one (all NULL below)
windows as (
  select a.platform_id, h.days, h.score_ago,
    coalesce(c.arrived, 0) as arrived, coalesce(c.departed, 0) as departed,
    coalesce(c.trusted, 0) as trusted, coalesce(c.untrusted, 0) as untrusted,
    coalesce(c.arrived_points, 0) as arrived_points, coalesce(c.left_points, 0) as left_points,
    coalesce(c.trusted_points, 0) as trusted_points, coalesce(c.untrusted_points, 0) as untrusted_points
  from int_accounts a
  join int_score_ago h on h.platform_id = a.platform_id and h.days in (7, 30) and h.score_ago is not null
  left join changes c on c.platform_id = a.platform_id and c.days = h.days
)
select
  a.account_idx, a.platform_id, s.platform_score, s.rank,
  round(coalesce(c.audience, 0) / getvariable('score_unit'), 4) as audience,
  s.size_followers,
  round(s.size_divisor, 4) as size_divisor,
  coalesce(f.smart_followers, 0)::integer as smart_followers,
  coalesce(c.trusted_followers, 0)::integer as trusted_followers,
  coalesce(c.saturated_followers, 0)::integer as saturated_followers,
  coalesce(c.reciprocal_followers, 0)::integer as reciprocal_followers,
  coalesce(c.seed_followers, 0)::integer as seed_followers,
  round(coalesce(c.seed_audience / c.audience, 0), 4) as seed_share,
  round(coalesce(c.top_weight / c.audience, 0), 4) as top_follower_share,
  round(coalesce(list_sum(c.top3) / c.audience, 0), 4) as top3_share,
  k.platform_id is not null as is_seed,
  k.standing_inflow / getvariable('score_unit') as seed_standing,
  k.seed_trust / getvariable('score_unit') as seed_endowment,
  -- + 0: a negative change, departure or rest rounded to zero is 0, not −0
  w7.score_ago as score_7d_ago,
  round(s.platform_score - w7.score_ago, 2) + 0 as score_change_7d,
  w7.arrived::integer as arrived_7d, w7.departed::integer as left_7d,
  w7.trusted::integer as trusted_7d, w7.untrusted::integer as untrusted_7d,
  round(w7.arrived_points, 2) as arrived_points_7d, round(w7.left_points, 2) + 0 as left_points_7d,
  round(w7.trusted_points, 2) as trusted_points_7d, round(w7.untrusted_points, 2) + 0 as untrusted_points_7d,
  round(s.platform_score - w7.score_ago - w7.arrived_points - w7.left_points - w7.trusted_points
        - w7.untrusted_points, 2) + 0 as other_points_7d,
  w30.score_ago as score_30d_ago,
  round(s.platform_score - w30.score_ago, 2) + 0 as score_change_30d,
  w30.arrived::integer as arrived_30d, w30.departed::integer as left_30d,
  w30.trusted::integer as trusted_30d, w30.untrusted::integer as untrusted_30d,
  round(w30.arrived_points, 2) as arrived_points_30d, round(w30.left_points, 2) + 0 as left_points_30d,
  round(w30.trusted_points, 2) as trusted_points_30d, round(w30.untrusted_points, 2) + 0 as untrusted_points_30d,
  round(s.platform_score - w30.score_ago - w30.arrived_points - w30.left_points - w30.trusted_points
        - w30.untrusted_points, 2) + 0 as other_points_30d
from int_accounts a
join int_scores s on s.platform_id = a.platform_id
left join followers f on f.platform_id = a.platform_id
left join contributions c on c.platform_id = a.platform_id
left join int_score_seeds k on k.platform_id = a.platform_id
left join windows w7 on w7.platform_id = a.platform_id and w7.days = 7
left join windows w30 on w30.platform_id = a.platform_id and w30.days = 30
order by a.account_idx;
