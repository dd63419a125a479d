-- categories.parquet — grain: one row per category. columns: category_id, name. sort: category_id
create or replace table categories as
select category_id, name from stg_categories order by category_id;
