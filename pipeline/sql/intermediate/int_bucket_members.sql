-- One row per (smart-follows bucket, smart account that counts in it): all smart accounts, or those in
-- category 1 (vc), 7 (inf), 8 (angels).
create or replace table int_bucket_members as
select 'all' as bucket, platform_id from int_accounts where is_smart
union all
select case c.category_id when 1 then 'vc' when 7 then 'inf' else 'angels' end as bucket, c.platform_id
from stg_account_categories c
join int_accounts a on a.platform_id = c.platform_id and a.is_smart
where c.category_id in (1, 7, 8);
