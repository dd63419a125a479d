-- The score's two functions, used by the propagation, the score and its explanations (docs/score.md):
-- what a follower of trust `trust` and out-degree `outdegree` passes to each account it follows (a saturating cap),
-- and the points an inflow scores.
create or replace macro saturated_share(trust, outdegree) as
  floor(getvariable('score_cap') * (1 - exp(-(trust * getvariable('score_alpha') / outdegree) / getvariable('score_cap'))));
create or replace macro score_points(inflow) as
  least(1000, 1000 * ln(1 + inflow / getvariable('score_cap')) / ln(1 + getvariable('score_scale_full')));

-- One row per smart edge source → target, as the score propagates over it: the source's out-degree in the smart
-- graph and whether the target follows the source back (a reciprocal follow, see int_score_iteration).
create or replace table int_score_edges as
select
  e.source_id, e.target_id,
  count(*) over (partition by e.source_id) as outdegree,
  b.source_id is not null as reciprocal
from int_smart_edges e
left join int_smart_edges b on b.source_id = e.target_id and b.target_id = e.source_id;
