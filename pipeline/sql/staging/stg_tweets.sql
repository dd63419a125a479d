-- One row per stored tweet that mentions at least one account (raw tweets.parquet); created_at cast to an instant.
create or replace view stg_tweets as
select
  tweet_id, author_id, cast(created_at as timestamptz) as created_at, text, urls,
  favorites, retweets, replies, views, mentioned_ids
from read_parquet(getvariable('raw_dir') || '/tweets.parquet');
