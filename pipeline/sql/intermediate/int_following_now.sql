-- One row per active follow edge as of build_date (the runs open on that day; a backfilled score date reads the
-- runs open on its own date).
create or replace table int_following_now as
select source_id, target_id
from int_runs
where valid_from <= getvariable('build_date') and (valid_to is null or valid_to > getvariable('build_date'));
