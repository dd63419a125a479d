-- One row per account and look-back (1, 7, 30 days): how its smart followers and its score moved since
-- build_date - days. Smart followers then = currently smart followers whose run of follows was open on that day
-- (the latest scan of the follower on or before that day held the follow). A follow found by its follower's first
-- scan (a baseline run: an install's first scans, an account monitored since) is not growth: it counts as held then
-- too, as it makes no follow event.

-- whether a run of follows was held on `day`
create or replace macro held_on(valid_from, valid_to, is_baseline, day) as
  (valid_from <= day or is_baseline) and (valid_to is null or valid_to > day);

create or replace table int_growth as
with followers_then as (
  -- one pass over the runs that may have been held 30 days ago or later, counted per look-back
  select r.target_id as platform_id,
    count(*) filter (held_on(r.valid_from, r.valid_to, r.is_baseline, getvariable('build_date') - 1)) as held_1,
    count(*) filter (held_on(r.valid_from, r.valid_to, r.is_baseline, getvariable('build_date') - 7)) as held_7,
    count(*) filter (held_on(r.valid_from, r.valid_to, r.is_baseline, getvariable('build_date') - 30)) as held_30
  from int_runs r
  join int_accounts f on f.platform_id = r.source_id and f.is_smart
  where r.valid_to is null or r.valid_to > getvariable('build_date') - 30
  group by r.target_id
),
followers_now as (
  select target_id as platform_id, count(*) as smart_followers from int_smart_followers group by target_id
)
select
  h.platform_id, h.days,
  coalesce(n.smart_followers, 0)
    - coalesce(case h.days when 1 then t.held_1 when 7 then t.held_7 when 30 then t.held_30 end, 0) as smart_followers_diff,
  round(s.platform_score - h.score_ago, 2) + 0 as platform_score_diff  -- + 0: a fall rounded to zero is 0, not −0
from int_score_ago h
join int_scores s on s.platform_id = h.platform_id
left join followers_now n on n.platform_id = h.platform_id
left join followers_then t on t.platform_id = h.platform_id;
