-- After the first pass: each seed's endowment for the second pass follows its standing, the trust its own smart
-- audience passed to it (first-pass inflow): 1 − exp(−inflow / score_full_standing) units, so at most one unit. A
-- seed-category account nobody trusted follows has no standing and endows nothing: buying its follow buys nothing.
create or replace table int_score_seeds as
select
  s.platform_id,
  floor(getvariable('score_unit') * (1 - exp(-coalesce(t.inflow, 0) / getvariable('score_full_standing'))))::bigint
    as seed_trust,
  coalesce(t.inflow, 0) as standing_inflow
from int_score_seeds s
left join int_trust t on t.platform_id = s.platform_id;
