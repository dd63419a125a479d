-- One row per secondary "friend" record known only through the graph (raw friends.parquet).
create or replace view stg_friends as
select account_id as platform_id, username, name, description, profile_image, followers_count, graph_score
from read_parquet(getvariable('raw_dir') || '/friends.parquet');
