-- One row per stored tweet created before the end of build_date (UTC), with its display text (stg_tweets): the
-- state's tweets plus the days this build folds; a tweet delivered on several days is its latest delivery.
create or replace table int_tweets as
with delivered as (
  select ingest_date, tweet_id, author_id, created_at, text, favorites, retweets, replies, views, mentioned_ids
  from state_tweets
  union all
  select ingest_date, tweet_id, author_id, created_at, text, favorites, retweets, replies, views, mentioned_ids
  from stg_tweets
)
select tweet_id, author_id, created_at, favorites, retweets, replies, views, mentioned_ids, text
from delivered
where created_at < cast(getvariable('build_date') + 1 as timestamptz)
qualify row_number() over (partition by tweet_id order by ingest_date desc) = 1;
