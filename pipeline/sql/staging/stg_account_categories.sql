-- One row per (full account, category) assignment (raw account_categories.parquet).
create or replace view stg_account_categories as
select account_id as platform_id, category_id
from read_parquet(getvariable('raw_dir') || '/account_categories.parquet');
