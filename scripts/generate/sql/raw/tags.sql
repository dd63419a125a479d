select tag_id::INTEGER as tag_id, name, tag_category_id::INTEGER as tag_category_id from tags order by tag_id
