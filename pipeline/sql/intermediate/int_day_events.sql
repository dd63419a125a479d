-- The follow/unfollow events this build folds: a run opened after the source's baseline is a 'follow' on its
-- valid_from, a closed run an 'unfollow' on its valid_to (a from-scratch fold derives every event of its runs).
create or replace table int_day_events as
select valid_from as event_date, source_id, target_id, 'follow' as kind from int_runs_opened where not is_baseline
union all
select valid_to, source_id, target_id, 'unfollow' from int_runs_opened where valid_to is not null
union all
select valid_to, source_id, target_id, 'unfollow' from int_runs_closed;
