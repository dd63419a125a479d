-- API lookups per (UTC day, account): the counts folded into the state plus the lookup files not folded yet
-- (raw_lookups: the readable lookups of the server's DATA_DIR/lookups/*.ndjson that are still being written, as
-- pipeline/state.ts's lookupSource reads them).
create or replace view stg_lookups as
select date, platform_id, lookups from st.lookup_counts
union all
select cast("at" as date) as date, platform_id, count(*) as lookups
from raw_lookups
group by all;
