-- One propagation step, run up to SCORE_PARAMS.iterations times per pass by the runner (pipeline/score.ts):
--   share(u→v) = cap · (1 − exp(−raw / cap)),  raw = α·(trust(u) − share(v→u) of the previous step) / outdegree(u)
--   inflow(v)  = Σ over smart edges u→v of share(u→v)                  (what v's smart audience passes to it)
--   trust(v)   ← (1 − α)·endowment(v) + inflow(v)           (endowment: int_score_seeds.seed_trust of this pass)
-- Trust never returns along the edge it arrived on: on a reciprocal follow u⇄v, u passes v only the trust it did not
-- get from v, so a follow-back (or a farm of accounts that follow only the target and are followed back) echoes
-- nothing. The cap bounds what one follower can give any account, smoothly: a follower passes about its raw share
-- while that is small against the cap and about the cap once it is large, so an established follower's contribution
-- barely moves when its own trust or out-degree does. Shares are floored to integers, so the sums are exact
-- whatever the thread count. Every edge first passes its source's plain share; the reciprocal edges (a few in a
-- thousand) then add the difference between their echo-free share and the plain one.
create or replace table int_score_shares as
with source_share as (
  select d.source_id, d.outdegree, t.trust, saturated_share(t.trust, d.outdegree) as share
  from int_score_outdegree d
  join int_trust t on t.platform_id = d.source_id
),
plain as (
  select e.target_id, sum(s.share)::bigint as inflow
  from int_smart_edges e
  join source_share s on s.source_id = e.source_id
  group by e.target_id
),
reciprocal as (
  select r.source_id, r.target_id, s.share as plain_share,
    saturated_share(greatest(0, s.trust - coalesce(b.share, 0)), s.outdegree)::bigint as share
  from int_score_reciprocal r
  join source_share s on s.source_id = r.source_id
  left join int_score_echo b on b.source_id = r.target_id and b.target_id = r.source_id
)
select target_id, inflow, null::ubigint as source_id, null::bigint as share from plain
union all
select target_id, share - plain_share, source_id, share from reciprocal;

drop table if exists int_score_echo_prev;
alter table int_score_echo rename to int_score_echo_prev;
create table int_score_echo as
select source_id, target_id, share from int_score_shares where source_id is not null and share > 0;

create or replace table int_trust_next as
with inflow as (select target_id as platform_id, sum(inflow)::bigint as inflow from int_score_shares group by target_id),
retained as (
  select platform_id, floor(seed_trust * (1 - getvariable('score_alpha')))::bigint as retained
  from int_score_seeds where seed_trust > 0
)
select
  coalesce(i.platform_id, r.platform_id) as platform_id,
  coalesce(i.inflow, 0) as inflow,
  coalesce(i.inflow, 0) + coalesce(r.retained, 0) as trust
from inflow i
full outer join retained r on r.platform_id = i.platform_id
where coalesce(i.inflow, 0) + coalesce(r.retained, 0) > 0;
-- the previous step's trust stays, so int_score_contributions can split the final inflow into its followers' shares
drop table if exists int_trust_prev;
alter table int_trust rename to int_trust_prev;
alter table int_trust_next rename to int_trust;
drop table int_score_shares;
-- What this step changed: accounts whose trust or inflow moved, reciprocal edges whose share moved. The next step
-- reads only int_trust and int_score_echo, so after a step that changed nothing every further step would compute the
-- same tables: the runner stops the pass there (the result is the one all the steps would give).
create or replace table int_score_moved as
select
  (select count(*) from int_trust t full join int_trust_prev p using (platform_id)
   where t.trust is distinct from p.trust or t.inflow is distinct from p.inflow)
  + (select count(*) from int_score_echo e full join int_score_echo_prev p using (source_id, target_id)
     where e.share is distinct from p.share) as moved;
