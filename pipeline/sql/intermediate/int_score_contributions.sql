-- One row per (target, smart follower) that passed the target trust in the last propagation step: the follower's
-- share of the target's inflow, which int_scores turned into points. The shares of one target sum exactly to its
-- inflow: plain follows pass saturated_share of the follower's previous-step trust, reciprocal ones what the last
-- step recorded in int_score_echo.
create or replace table int_score_contributions as
with plain as (
  select e.target_id, e.source_id, saturated_share(p.trust, e.outdegree)::bigint as share, false as reciprocal
  from int_score_edges e
  join int_trust_prev p on p.platform_id = e.source_id
  where not e.reciprocal
)
select target_id, source_id, share, reciprocal from plain where share > 0
union all
select target_id, source_id, share, true from int_score_echo where share > 0;
