-- One row per follow/unfollow event up to build_date: the state's event log plus the events folded by this build.
create or replace view int_follow_events as
select source_id, target_id, kind, event_date from state_events
union all
select source_id, target_id, kind, event_date from int_day_events;
