-- One TrustRank iteration, run score_iterations times by the runner:
--   inflow(v) = Σ over smart edges u→v of α·trust(u)/outdegree(u)      (what v's smart audience passes to it)
--   trust(v)  ← (1-α)·seed(v) + inflow(v)
-- Shares are floored to integers, so the sums are exact whatever the thread count.
create or replace table int_trust_next as
with shares as (
  select t.platform_id as source_id, floor(t.trust * getvariable('score_alpha') / d.outdegree)::bigint as share
  from int_trust t
  join int_score_outdegree d on d.source_id = t.platform_id
),
inflow as (
  select e.target_id as platform_id, sum(s.share)::bigint as inflow
  from int_smart_edges e
  join shares s on s.source_id = e.source_id and s.share > 0
  group by e.target_id
),
retained as (
  select platform_id, floor(seed_trust * (1 - getvariable('score_alpha')))::bigint as retained from int_score_seeds
)
select
  coalesce(i.platform_id, r.platform_id) as platform_id,
  coalesce(i.inflow, 0) as inflow,
  coalesce(i.inflow, 0) + coalesce(r.retained, 0) as trust
from inflow i
full outer join retained r on r.platform_id = i.platform_id;
drop table int_trust;
alter table int_trust_next rename to int_trust;
