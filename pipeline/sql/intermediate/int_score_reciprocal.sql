-- One row per reciprocal smart edge source → target (the target follows the source back): the few edges on which
-- the propagation withholds the echo (int_score_iteration). Every other smart edge passes its source's plain share.
create or replace table int_score_reciprocal as
select e.source_id, e.target_id
from int_smart_edges e
semi join int_smart_edges b on b.source_id = e.target_id and b.target_id = e.source_id;
