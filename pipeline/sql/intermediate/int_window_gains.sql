-- One row per (days, bucket, target, smart follower) with a follow event in the window ending on build_date
-- (period 'current': build_date and the days-1 days before) or in the window just before it ('previous').
create or replace table int_window_gains as
with windows as (select unnest([1, 7, 30]) as days)
select distinct
  w.days, b.bucket, e.target_id, e.source_id as follower_id,
  if(e.event_date > getvariable('build_date') - w.days, 'current', 'previous') as period
from int_follow_events e
join int_bucket_members b on b.platform_id = e.source_id
cross join windows w
where e.kind = 'follow'
  and e.event_date <= getvariable('build_date')
  and e.event_date > getvariable('build_date') - 2 * w.days;
