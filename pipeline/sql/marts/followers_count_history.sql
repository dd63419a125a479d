-- followers_count_history.parquet — grain: one row per monitored account per scanned day (≤ build_date).
-- columns: account_idx, platform_id, date, followers_count. sort: account_idx, date desc
create or replace table followers_count_history as
select a.account_idx, s.platform_id, s.date, s.followers_count
from int_followers_series s
join int_accounts a on a.platform_id = s.platform_id
order by a.account_idx, s.date desc;
