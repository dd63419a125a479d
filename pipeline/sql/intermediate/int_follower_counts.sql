-- Every follower-count scan up to build_date: the state's series plus the days folded by this build.
create or replace view int_follower_counts as
select platform_id, scan_date, followers_count from state_follower_counts
union all
select platform_id, scan_date, followers_count from stg_follower_counts;
