-- Every follower-count scan up to build_date: the state's series plus the days folded by this build.
-- An account's count as of a day is its latest scan of the 30 days ending then (counted_by): the crawler counts a
-- monitored account every few days, and an older count is stale.
create or replace macro counted_by(scan_date, day) as scan_date <= day and scan_date > day - 30;
create or replace view int_follower_counts as
select platform_id, scan_date, followers_count from state_follower_counts
union all
select platform_id, scan_date, followers_count from stg_follower_counts;
