-- The state as of the day before state_date (the build date: a backfilled score date moves build_date, not it), as
-- the models read it. With state_rebuild set (a fold of every raw day from scratch) the raw-derived tables start
-- empty; score history and lookups are kept.
create or replace view state_runs as
select source_id, target_id, subscribed_at, valid_from,
  if(valid_to >= getvariable('state_date'), null, valid_to) as valid_to, is_baseline
from st.follow_runs
where valid_from < getvariable('state_date') and not getvariable('state_rebuild');
create or replace view state_events as
select * from st.follow_events where event_date < getvariable('state_date') and not getvariable('state_rebuild');
create or replace view state_follow_sources as
select * from st.follow_sources where first_scanned < getvariable('state_date') and not getvariable('state_rebuild');
create or replace view state_follower_counts as
select * from st.follower_counts where scan_date < getvariable('state_date') and not getvariable('state_rebuild');
create or replace view state_tweets as
select * exclude (superseded_on) from st.tweets
where ingest_date < getvariable('state_date') and (superseded_on is null or superseded_on >= getvariable('state_date'))
  and not getvariable('state_rebuild');
create or replace view state_score_history as
select * from st.score_history where score_date < getvariable('state_date');
create or replace view state_score_keyframes as
select * from st.score_keyframes where score_date < getvariable('state_date');
create or replace view state_score_ranks as
select * from st.score_ranks where score_date < getvariable('state_date');
create or replace view state_score_dates as
select * from st.score_dates where score_date < getvariable('state_date');
