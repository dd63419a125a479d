-- API lookups per (UTC day, account): the counts folded into the state plus the lookup files not folded yet
-- (raw_lookups, the server's DATA_DIR/lookups/*.ndjson that are still being written). platform_id arrives as a
-- decimal string; unreadable lines are skipped (a server stopped mid-write leaves a partial last line).
create or replace view stg_lookups as
select date, platform_id, lookups from st.lookup_counts
union all
select cast("at" as date) as date, try_cast(platform_id as ubigint) as platform_id, count(*) as lookups
from raw_lookups
where try_cast(platform_id as ubigint) is not null and "at" is not null
group by all;
