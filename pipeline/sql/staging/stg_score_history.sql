-- Score history of earlier dates: the state's scores, with the dates this build scores (int_score_rows, the
-- backfill) in place of the stored ones. stg_score_history_dates lists the scored dates: a date listed there with no
-- row for an account means score 0 (history keeps scores > 0 only); a date not listed means "unknown".
create or replace view stg_score_history as
select score_date, platform_id, platform_score, rank from state_scores
where score_date not in (select score_date from int_score_rows)
union all
select score_date, platform_id, platform_score, rank from int_score_rows
where platform_score > 0 and score_date < getvariable('build_date');
create or replace view stg_score_history_dates as
select score_date from state_score_dates
union
select distinct score_date from int_score_rows where score_date < getvariable('build_date');
