-- Rewind the state to the end of rewind_date - 1: every row dated rewind_date or later goes, runs closed on or
-- after it are open again. Run inside the transaction that writes the day (a rerun) or alone (a failed night).
delete from st.follow_runs where valid_from >= getvariable('rewind_date');
update st.follow_runs set valid_to = null where valid_to >= getvariable('rewind_date');
delete from st.follow_events where event_date >= getvariable('rewind_date');
delete from st.follow_scans where scan_date >= getvariable('rewind_date');
delete from st.follow_sources where first_scanned >= getvariable('rewind_date');
delete from st.follower_counts where scan_date >= getvariable('rewind_date');
delete from st.tweets where ingest_date >= getvariable('rewind_date');
update st.tweets set superseded_on = null where superseded_on >= getvariable('rewind_date');
delete from st.score_history where score_date >= getvariable('rewind_date');
delete from st.score_keyframes where score_date >= getvariable('rewind_date');
delete from st.score_ranks where score_date >= getvariable('rewind_date');
delete from st.score_dates where score_date >= getvariable('rewind_date');
delete from st.days where day >= getvariable('rewind_date');
delete from st.raw_days where day >= getvariable('rewind_date');
