-- One row per full account record (raw accounts.parquet), renamed to snapshot names.
create or replace view stg_accounts as
select
  account_id as platform_id, username, slug, name, description, profile_image, blue_verified,
  is_active, is_suspended, is_monitored, followers_count as profile_followers_count
from read_parquet(getvariable('raw_dir') || '/accounts.parquet');
