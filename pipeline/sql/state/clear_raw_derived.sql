-- A from-scratch fold replaces everything derived from raw days (score history, lookups and the days to replay
-- after it stay).
delete from st.follow_runs;
delete from st.follow_events;
delete from st.follow_scans;
delete from st.follow_sources;
delete from st.follower_counts;
delete from st.tweets;
delete from st.days;
delete from st.raw_days;
delete from st.replay_days where day <= getvariable('state_date');
