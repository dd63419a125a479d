-- previous_usernames.parquet — grain: one row per (account, old handle) of a known account.
-- columns: account_idx, platform_id, username, changed_at
-- sort: account_idx, changed_at (then username)
create or replace table previous_usernames as
select a.account_idx, p.platform_id, p.username, p.changed_at
from stg_previous_usernames p
join int_accounts a on a.platform_id = p.platform_id
order by a.account_idx, p.changed_at, p.username;
