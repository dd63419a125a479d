-- account_categories.parquet — grain: one row per (full account, category).
-- columns: account_idx, platform_id, category_id. sort: account_idx, category_id
create or replace table account_categories as
select a.account_idx, c.platform_id, c.category_id
from stg_account_categories c
join int_accounts a on a.platform_id = c.platform_id and a.is_tracked
order by a.account_idx, c.category_id;
