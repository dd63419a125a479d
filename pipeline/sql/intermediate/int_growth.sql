-- One row per account and look-back (1, 7, 30 days): how its smart followers and its score moved since
-- build_date - days. Smart followers then = currently smart followers whose run of follows was open on that day
-- (the latest scan of the follower on or before that day held the follow). A follow found by its follower's first
-- scan (a baseline run: an install's first scans, an account monitored since) is not growth: it counts as held then
-- too, as it makes no follow event.
create or replace table int_growth as
with lookbacks as (select unnest([1, 7, 30]) as days),
followers_then as (
  select l.days, r.target_id as platform_id, count(*) as smart_followers
  from int_runs r
  cross join lookbacks l
  join int_accounts f on f.platform_id = r.source_id and f.is_smart
  where (r.valid_from <= getvariable('build_date') - l.days or r.is_baseline)
    and (r.valid_to is null or r.valid_to > getvariable('build_date') - l.days)
  group by l.days, r.target_id
),
followers_now as (
  select target_id as platform_id, count(*) as smart_followers from int_smart_followers group by target_id
)
select
  h.platform_id, h.days,
  coalesce(n.smart_followers, 0) - coalesce(t.smart_followers, 0) as smart_followers_diff,
  round(s.platform_score - h.score_ago, 2) + 0 as platform_score_diff  -- + 0: a fall rounded to zero is 0, not −0
from int_score_ago h
join int_scores s on s.platform_id = h.platform_id
left join followers_now n on n.platform_id = h.platform_id
left join followers_then t on t.platform_id = h.platform_id and t.days = h.days;
