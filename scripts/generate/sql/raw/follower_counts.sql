-- one row per monitored account per scanned day over count_days days (the generated days), the popularity count
-- plus the followers in the monitored set (follower_totals.sql): 15% of the accounts joined the monitored set
-- later, suspended ones stop being scanned, 3% of the days are missed at random and three days are crawler outages
select
  (getvariable('end_date') - k::INTEGER)::DATE as scan_date,
  account_id,
  followers_at(followers_end, growth, jump_k, r, k) + coalesce(g.n, 0) as followers_count
from entity
left join graph_followers g using (account_id)
cross join range(getvariable('count_days')) t(k)
where is_monitored
  and k <= coalesce(joined_days_ago(r, role), getvariable('count_days'))
  and k >= case when is_suspended then 1 + rnd_int(r, 0, 68, 200) else 0 end
  and rnd(r, k, 69) >= 0.03
  and k not in (3 + rnd_int(0, 0, 70, 40), 50 + rnd_int(0, 0, 71, 100), 160 + rnd_int(0, 0, 72, 200))
