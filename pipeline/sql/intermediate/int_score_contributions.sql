-- One row per (target, smart follower) that passed the target trust in the last propagation step: the follower's
-- share of the target's inflow and its weight in the target's score (follower_weight: 1e-9 trusted followers). The
-- shares of one target sum exactly to its inflow: plain follows pass plain_share of the follower's previous-step
-- trust, reciprocal ones what the last step recorded in int_score_echo. int_scores sums the weights.
create or replace table int_score_contributions as
select *, follower_weight(share)::bigint as weight from (
  select
    e.target_id, e.source_id,
    if(r.source_id is null, plain_share(p.trust, d.outdegree), coalesce(b.share, 0))::bigint as share,
    r.source_id is not null as reciprocal
  from int_smart_edges e
  join int_trust_prev p on p.platform_id = e.source_id
  join int_score_outdegree d on d.source_id = e.source_id
  left join int_score_reciprocal r on r.source_id = e.source_id and r.target_id = e.target_id
  left join int_score_echo b on b.source_id = e.source_id and b.target_id = e.target_id
)
where share > 0;
