-- One row per rename (raw previous_usernames.parquet).
create or replace view stg_previous_usernames as
select account_id as platform_id, username, changed_at
from read_parquet(getvariable('raw_dir') || '/previous_usernames.parquet');
