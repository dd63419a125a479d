-- API lookups recorded by the server (DATA_DIR/lookups/<date>.ndjson), filled by stg_lookups_append when the
-- lookups folder has files. platform_id arrives as a decimal string.
create or replace table stg_lookups ("at" timestamptz, operation varchar, platform_id ubigint);
