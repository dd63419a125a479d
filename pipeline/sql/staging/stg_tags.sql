-- One row per tag (raw tags.parquet).
create or replace view stg_tags as
select tag_id, name, tag_category_id
from read_parquet(getvariable('raw_dir') || '/tags.parquet');
