select account_id, category_id from account_category order by account_id, category_id
