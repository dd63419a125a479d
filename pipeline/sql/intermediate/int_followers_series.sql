-- One row per monitored account per scanned day on or before build_date. A view: followers_diff reads the last 30
-- days of it, not every stored count.
create or replace view int_followers_series as
select c.platform_id, c.scan_date as date, c.followers_count
from int_follower_counts c
join int_accounts a on a.platform_id = c.platform_id and a.is_monitored
where c.scan_date <= getvariable('build_date');
