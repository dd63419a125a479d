-- categorized_followers_count.parquet — grain: one row per (target with ≥1 smart follower, list entry).
-- columns: target_idx, target_id, ordinal, name, category_id, cnt
-- entries: All (id NULL, distinct smart followers), Projects (3), Venture Capitals (1), Influencers (7), the other
--   categories by cnt desc then id asc, NoCategory (id 0, smart followers without a category)
-- sort: target_idx, ordinal
create or replace table categorized_followers_count as
with per_category as (
  select sf.target_id, c.category_id, count(*) as cnt
  from int_smart_followers sf
  join stg_account_categories c on c.platform_id = sf.follower_id
  group by sf.target_id, c.category_id
),
per_target as (
  select
    sf.target_id, count(*) as all_cnt,
    count(*) filter (where not exists (select 1 from stg_account_categories c where c.platform_id = sf.follower_id))
      as no_category_cnt
  from int_smart_followers sf
  group by sf.target_id
),
entries as (
  select target_id, 'All' as name, null::integer as category_id, all_cnt as cnt, 0 as section from per_target
  union all
  select t.target_id, k.name, k.category_id, coalesce(p.cnt, 0),
    case k.category_id when 3 then 1 when 1 then 2 when 7 then 3 else 4 end
  from per_target t
  cross join stg_categories k
  left join per_category p on p.target_id = t.target_id and p.category_id = k.category_id
  union all
  select target_id, 'NoCategory', 0, no_category_cnt, 5 from per_target
)
select
  a.account_idx as target_idx, e.target_id,
  (row_number() over (partition by e.target_id order by e.section, e.cnt desc, e.category_id) - 1)::integer
    as ordinal,
  e.name, e.category_id, e.cnt::bigint as cnt
from entries e
join int_accounts a on a.platform_id = e.target_id
order by target_idx, ordinal;
