-- account_tags.parquet — grain: one row per (full account, tag).
-- columns: account_idx, platform_id, tag_id, tag_category_id. sort: account_idx, tag_id
create or replace table account_tags as
select a.account_idx, t.platform_id, t.tag_id, g.tag_category_id
from stg_account_tags t
join int_accounts a on a.platform_id = t.platform_id and a.is_tracked
left join stg_tags g on g.tag_id = t.tag_id
order by a.account_idx, t.tag_id;
