-- score_dates.parquet — grain: one row per scored date within the 365 days up to the build date (the build date and
-- the earlier dates the state scored; a date not listed has no known scores). The dates score_history's sparse
-- rows are read over.
-- columns: date
-- sort: date desc
create or replace table score_dates as
select score_date as date from stg_score_history_dates
where score_date >= getvariable('build_date') - 364
union
select getvariable('build_date')
order by date desc;
