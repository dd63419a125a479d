-- One row per tag category (raw tag_categories.parquet).
create or replace view stg_tag_categories as
select tag_category_id, name
from read_parquet(getvariable('raw_dir') || '/tag_categories.parquet');
