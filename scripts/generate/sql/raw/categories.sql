select category_id::INTEGER as category_id, name from categories order by category_id
