-- One row per category (raw categories.parquet).
create or replace view stg_categories as
select category_id, name
from read_parquet(getvariable('raw_dir') || '/categories.parquet');
