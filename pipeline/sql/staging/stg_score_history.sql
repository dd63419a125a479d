-- The score history before build_date, sparse (st.score_history): the state's rows before the first date this
-- build scores, then this build's scores of earlier dates (int_score_rows, the backfill: every account, one row per
-- date). An account's score on a scored date = its last row on or before that date (0 without one).
-- stg_score_history_dates lists the scored dates: a date not listed there has no known scores.
create or replace view stg_score_history as
select score_date, platform_id, platform_score from state_score_history
where score_date < (select coalesce(min(score_date), getvariable('build_date')) from int_score_rows)
union all
select score_date, platform_id, platform_score from int_score_rows
where score_date < getvariable('build_date');
create or replace view stg_score_history_dates as
select score_date from state_score_dates
union
select distinct score_date from int_score_rows where score_date < getvariable('build_date');
-- The rows of the score history, this build's scores included, that give every account's score on each date from
-- `since` to `until` (its last row on or before the date): the latest checkpoint on or before `since`
-- (st.score_checkpoints: every account's score on that date; not one of a date this build scores again) and the rows
-- after it up to `until`; every row up to `until` when there is none. A night reads the changes of a month or two,
-- not the whole history.
create or replace macro stg_score_rows(since, until) as table
with checkpoint as (
  select coalesce(max(score_date), '-infinity'::date) as checkpoint_date
  from state_score_checkpoints
  where score_date <= since
    and score_date < (select coalesce(min(score_date), getvariable('build_date')) from int_score_rows)
)
select c.score_date, c.platform_id, c.platform_score
from state_score_checkpoints c semi join checkpoint k on c.score_date = k.checkpoint_date
union all
select h.score_date, h.platform_id, h.platform_score
from stg_score_history h
where h.score_date <= until and h.score_date > (select checkpoint_date from checkpoint)
union all
select score_date, platform_id, platform_score from int_score_rows
where score_date = getvariable('build_date') and score_date <= until;

-- Every account's score on `scored_on` (none: no row, no score), from stg_score_rows.
create or replace macro stg_scores_on(scored_on) as table
select platform_id, arg_max(platform_score, score_date) as platform_score
from stg_score_rows(scored_on, scored_on)
group by platform_id;
