-- The start of one propagation pass: trust = the seed endowment, and no share yet on any reciprocal edge.
create or replace table int_trust as
select platform_id, 0::bigint as inflow, seed_trust as trust from int_score_seeds where seed_trust > 0;
create or replace table int_score_echo (source_id ubigint, target_id ubigint, share bigint);
