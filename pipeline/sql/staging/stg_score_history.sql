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
-- The state's keyframes (st.score_keyframes) before the first date this build scores: every account's score > 0 as
-- of the keyframe's date, as stg_score_history gives it.
create or replace view stg_score_keyframes as
select score_date, platform_id, platform_score from state_score_keyframes
where score_date < (select coalesce(min(score_date), getvariable('build_date')) from int_score_rows);
-- score_rows_from(day): rows of stg_score_history that give every account's score as of any date from `day` on
-- (its last row on or before the date, none: 0): the latest keyframe on or before `day` and the rows after it, or
-- every row when there is no such keyframe. A night reads a keyframe and the week or month after it, not the history.
create or replace macro score_keyframe_on(day) as (select max(score_date) from stg_score_keyframes where score_date <= day);
create or replace macro score_rows_from(day) as table
select score_date, platform_id, platform_score from stg_score_history
where score_date > coalesce(score_keyframe_on(day), DATE '0001-01-01')
union all
select score_date, platform_id, platform_score from stg_score_keyframes
where score_date = score_keyframe_on(day);
