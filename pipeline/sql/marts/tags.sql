-- tags.parquet — grain: one row per tag. columns: tag_id, name, tag_category_id, tag_category_name. sort: tag_id
create or replace table tags as
select t.tag_id, t.name, t.tag_category_id, c.name as tag_category_name
from stg_tags t
left join stg_tag_categories c on c.tag_category_id = t.tag_category_id
order by t.tag_id;
