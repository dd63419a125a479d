-- One row per ranked account (tracked, score > 0) per scored date within the RANK_HISTORY_DAYS days ending on the
-- build date (rank_cutoff): the state's ranks before the first date this build scored, then this build's
-- (int_score_rows: the backfilled dates and the build date). A view, read by the score_ranks parts and by the
-- serving column of each account's ranks (pipeline/serving-columns.ts).
create or replace view int_score_ranks as
select score_date, platform_id, rank
from (
  select score_date, platform_id, rank from state_score_ranks
  where score_date < (select coalesce(min(score_date), getvariable('build_date')) from int_score_rows)
  union all
  select score_date, platform_id, rank from int_score_rows where platform_score > 0 and rank is not null
)
where score_date >= getvariable('rank_cutoff') and score_date <= getvariable('build_date');
