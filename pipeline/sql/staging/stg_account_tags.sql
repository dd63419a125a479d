-- One row per (full account, tag) assignment (raw account_tags.parquet).
create or replace view stg_account_tags as
select account_id as platform_id, tag_id
from read_parquet(getvariable('raw_dir') || '/account_tags.parquet');
