-- followers_count_history/period=<YYYY-MM | YYYY-MM-DD>/data.parquet — grain: one row per account per scanned day
-- (≤ build_date), every account the crawler counted (the view of pipeline/snapshot-sql.ts and the API keep the
-- monitored ones).
-- columns: platform_id, date, followers_count (+ day, which picks the part). sort within a part: platform_id, date desc
-- A view over the state's series and this build's counts, read by part.
create or replace view followers_count_history as
select platform_id, scan_date as date, followers_count, scan_date as day
from int_follower_counts
where scan_date <= getvariable('build_date');
