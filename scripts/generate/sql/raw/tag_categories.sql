select tag_category_id::INTEGER as tag_category_id, name from tag_categories order by tag_category_id
