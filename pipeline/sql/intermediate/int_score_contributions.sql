-- One row per (target, smart follower) that counts in the target's score: the follower holds trust it did not get
-- from the target (after the last propagation step; on a reciprocal follow, less what the target passed it in that
-- step, so a follow-back echoes nothing), at least trusted_share. Each counts as one trusted follower (weight: 1e-9
-- trusted followers), whatever that trust and however many accounts it follows, so a weight moves only when trust
-- starts or stops reaching the follower. `share` is what it passed the target in the last step (0 when that floors to
-- nothing): the shares of one target sum exactly to its inflow (plain follows pass saturated_share of the follower's
-- previous-step trust, reciprocal ones what the last step recorded in int_score_echo). int_scores sums the weights.
create or replace table int_score_contributions as
select
  e.target_id, e.source_id,
  if(r.source_id is null, saturated_share(p.trust, d.outdegree), coalesce(b.share, 0))::bigint as share,
  r.source_id is not null as reciprocal,
  follower_weight(p.trust - coalesce(x.share, 0))::bigint as weight
from int_smart_edges e
join int_trust_prev p on p.platform_id = e.source_id
join int_score_outdegree d on d.source_id = e.source_id
left join int_score_reciprocal r on r.source_id = e.source_id and r.target_id = e.target_id
left join int_score_echo b on b.source_id = e.source_id and b.target_id = e.target_id
-- what the target passed the follower in the last step (the echo tables hold the reciprocal follows only)
left join int_score_echo_prev x on x.source_id = e.target_id and x.target_id = e.source_id
where p.trust - coalesce(x.share, 0) >= getvariable('score_trusted_share');
