select account_id, tag_id from account_tag order by account_id, tag_id
