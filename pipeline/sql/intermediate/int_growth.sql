-- One row per account and look-back (1, 7, 30 days): how its smart followers and its score moved since
-- build_date - days. Smart followers then = currently smart followers whose follow was recorded on or before that day
-- and still active then (the latest scan of the follower on or before that day held it).
create or replace table int_growth as
with lookbacks as (select unnest([1, 7, 30]) as days),
scan_then as (
  select l.days, s.source_id, max(s.scan_seq) as scan_seq
  from int_scans s
  cross join lookbacks l
  where s.scan_date <= getvariable('build_date') - l.days
  group by l.days, s.source_id
),
followers_then as (
  select t.days, i.target_id as platform_id, count(*) as smart_followers
  from int_follow_islands i
  join scan_then t on t.source_id = i.source_id and t.scan_seq between i.start_seq and i.end_seq
  join int_accounts f on f.platform_id = i.source_id and f.is_smart
  group by t.days, i.target_id
),
followers_now as (
  select target_id as platform_id, count(*) as smart_followers from int_smart_followers group by target_id
)
select
  h.platform_id, h.days,
  coalesce(n.smart_followers, 0) - coalesce(t.smart_followers, 0) as smart_followers_diff,
  round(s.platform_score - h.score_ago, 2) as platform_score_diff
from int_score_ago h
join int_scores s on s.platform_id = h.platform_id
left join followers_now n on n.platform_id = h.platform_id
left join followers_then t on t.platform_id = h.platform_id and t.days = h.days;
