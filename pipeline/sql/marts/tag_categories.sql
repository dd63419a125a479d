-- tag_categories.parquet — grain: one row per tag category. columns: tag_category_id, name. sort: tag_category_id
create or replace table tag_categories as
select tag_category_id, name from stg_tag_categories order by tag_category_id;
