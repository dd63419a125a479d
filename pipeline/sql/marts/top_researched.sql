-- top_researched.parquet — grain: one row per (days, account) with at least one API lookup in the window ending on
-- the build date (build_date and the days-1 days before, UTC), at most 1000 per days.
-- columns: days, rank, account_idx, platform_id, lookups
-- sort: days, rank (= lookups desc, platform_id asc)
create or replace table top_researched as
with windows as (select unnest([1, 7, 30]) as days),
counts as (
  select w.days, a.account_idx, l.platform_id, sum(l.lookups) as lookups
  from stg_lookups l
  join int_accounts a on a.platform_id = l.platform_id
  cross join windows w
  where l.date between getvariable('build_date') - w.days + 1 and getvariable('build_date')
  group by w.days, a.account_idx, l.platform_id
)
select
  days::integer as days,
  row_number() over (partition by days order by lookups desc, platform_id)::integer as rank,
  account_idx, platform_id, lookups::bigint as lookups
from counts
qualify rank <= 1000
order by days, rank;
