-- One row per smart edge source → target, as the score propagates over it: the source's out-degree in the smart
-- graph and whether the target follows the source back (a reciprocal follow, see int_score_iteration).
create or replace table int_score_edges as
select
  e.source_id, e.target_id,
  count(*) over (partition by e.source_id) as outdegree,
  b.source_id is not null as reciprocal
from int_smart_edges e
left join int_smart_edges b on b.source_id = e.target_id and b.target_id = e.source_id;
