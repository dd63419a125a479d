-- one row per monitored account scanned on follow-scan day gen_day (an account's first scan is its baseline: day 0,
-- or the day it joined the monitored set); the list is every edge alive on that day. Scans run between 00:00 and
-- 20:00 UTC.
select
  scan_day(d) as scan_date,
  scan_day(d)::TIMESTAMP + to_milliseconds(rnd_int(r, d, 64, 72000000)) as scanned_at,
  account_id,
  list_transform(list_filter(edges, e -> (e.born <= d and d < e.died) or e.reborn <= d), e -> e.account_id)
    as following_ids
from (select r, account_id, edges, scan_days, getvariable('gen_day') as d from follow_edges)
where list_contains(scan_days, d)
order by account_id
