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
