-- mentions.parquet — grain: one row per (mentioned known account, tweet), self-mentions excluded.
-- columns: target_idx, target_id, tweet_idx, author_idx, author_id, created_at, epoch_s
-- sort: target_idx, created_at desc, tweet_id desc (= target_idx, tweet_idx)
create or replace table mentions as
with mentioned as (
  select distinct tweet_id, unnest(mentioned_ids) as target_id from int_tweets
)
select
  a.account_idx as target_idx, m.target_id, t.tweet_idx, t.author_idx, t.author_id, t.created_at,
  epoch(t.created_at)::bigint as epoch_s
from mentioned m
join int_tweet_idx t on t.tweet_id = m.tweet_id
join int_accounts a on a.platform_id = m.target_id
where m.target_id <> t.author_id
order by target_idx, tweet_idx;
