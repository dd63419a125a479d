select account_id, username, changed_at from previous_usernames order by account_id, changed_at
