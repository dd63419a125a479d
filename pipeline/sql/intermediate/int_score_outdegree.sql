-- The score's functions, used by the propagation, the score and its explanations (docs/score.md):
-- what a follower of trust `trust` and out-degree `outdegree` passes to each account it follows (a saturating cap),
-- the weight in an account's score of a follower holding `trust` it did not get from that account (1e-9 trusted
-- followers: one from trusted_share on, else 0),
-- the divisor of an account whose follower count is `followers` (its size term), the points an audience (the sum
-- of an account's followers' weights, 1e-9 trusted followers) scores against that divisor, and the points a follower
-- of weight `weight` moves such an account (what it would lose without it; for a negative weight, what it would gain,
-- negated; an account without a score row: audience 0, divisor 1).
create or replace macro saturated_share(trust, outdegree) as
  floor(getvariable('score_cap')
        * (1 - exp(-(trust * getvariable('score_alpha') / outdegree) / getvariable('score_cap'))));
create or replace macro follower_weight(trust) as
  if(trust >= getvariable('score_trusted_share'), getvariable('score_unit'), 0);
create or replace macro size_divisor(followers) as
  pow(1 + followers / getvariable('score_size_prior'), getvariable('score_size_exponent'));
create or replace macro score_points(audience, divisor) as
  least(1000, 1000 * ln(1 + audience / getvariable('score_unit') / divisor) / ln(1 + getvariable('score_scale_full')));
create or replace macro weight_points(audience, divisor, weight) as
  score_points(coalesce(audience, 0), coalesce(divisor, 1))
    - score_points(coalesce(audience, 0) - weight, coalesce(divisor, 1));

-- One row per smart follower: how many accounts it follows in the smart graph (int_smart_edges).
create or replace table int_score_outdegree as
select source_id, count(*) as outdegree from int_smart_edges group by source_id;
