-- One row per seed of the trust propagation: a smart account in a seed category (score_seed_categories).
-- Trust is a fixed-point integer, score_unit = one seed unit, so parallel sums are exact and the score
-- deterministic. This is the first pass's endowment: every seed one unit. int_score_standing then weights each seed
-- by the trust its own smart audience gave it in that pass, and the second pass starts from those weights.
create or replace table int_score_seeds as
select distinct a.platform_id, getvariable('score_unit')::bigint as seed_trust, null::bigint as standing_inflow
from int_accounts a
join stg_account_categories c on c.platform_id = a.platform_id
where a.is_smart and list_contains(getvariable('score_seed_categories'), c.category_id);
