-- one row per scan: the baseline (day 0) of every monitored account, then its session and budget rescans; the list
-- is every edge alive on that day. Scans run between 00:00 and 20:00 UTC.
select
  scan_day(d) as scan_date,
  scan_day(d)::TIMESTAMP + to_milliseconds(rnd_int(r, d, 64, 72000000)) as scanned_at,
  account_id,
  list_transform(list_filter(edges, e -> (e.born <= d and d < e.died) or e.reborn <= d), e -> e.account_id)
    as following_ids
from (select r, account_id, edges, unnest(scan_days) as d from follow_edges)
