-- followers_diff.parquet — grain: one row per monitored account: the 7- and 30-day windows as of build_date.
-- A window is build_date and the previous days-1 days; date = oldest scanned day in it (NULL when none);
-- diff = newest count − oldest count, 0 when fewer than two scans.
-- columns: account_idx, platform_id, week_date, week_diff, month_date, month_diff. sort: account_idx
create or replace table followers_diff as
with windows as (
  select
    s.platform_id, w.days,
    min(s.date) as oldest_date,
    if(count(*) >= 2, arg_max(s.followers_count, s.date) - arg_min(s.followers_count, s.date), 0) as diff
  from int_followers_series s
  cross join (select unnest([7, 30]) as days) w
  where s.date > getvariable('build_date') - w.days
  group by s.platform_id, w.days
)
select
  a.account_idx, a.platform_id,
  week.oldest_date as week_date, coalesce(week.diff, 0)::bigint as week_diff,
  month.oldest_date as month_date, coalesce(month.diff, 0)::bigint as month_diff
from int_accounts a
left join windows week on week.platform_id = a.platform_id and week.days = 7
left join windows month on month.platform_id = a.platform_id and month.days = 30
where a.is_monitored
order by a.account_idx;
