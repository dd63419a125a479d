-- One row per seed account of the trust propagation: smart accounts in a seed category (score_seed_categories).
-- Trust is a fixed-point integer (1e15 = all trust) so that parallel sums are exact and the score deterministic.
create or replace table int_score_seeds as
with seeds as (
  select distinct a.platform_id
  from int_accounts a
  join stg_account_categories c on c.platform_id = a.platform_id
  where a.is_smart and list_contains(getvariable('score_seed_categories'), c.category_id)
)
select platform_id, (1e15 // count(*) over ())::bigint as seed_trust
from seeds;
-- out-degree of every smart follower in the smart graph, and the starting trust vector (= the seed vector)
create or replace table int_score_outdegree as
select source_id, count(*) as outdegree from int_smart_edges group by source_id;
create or replace table int_trust as
select platform_id, 0::bigint as inflow, seed_trust as trust from int_score_seeds;
