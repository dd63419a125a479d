-- tweets/period=<YYYY-MM | YYYY-MM-DD>/data.parquet — grain: one row per stored tweet (created ≤ build_date), in the
-- part of the day (UTC) it was created on. The view of pipeline/snapshot-sql.ts numbers them (tweet_idx), and the
-- mentions view lists the accounts each one mentions (mentioned_ids, as delivered).
-- columns: tweet_id, author_id, created_at, created_at_iso, text, favorites, retweets, replies, views, mentioned_ids
--   (+ day, which picks the part, and row_hash, what its fingerprint sums). sort within a part: created_at desc,
--   tweet_id desc. A view over int_tweets (the state's tweets and this build's deliveries), read by part.
create or replace view tweets as
select tweet_id, author_id, created_at,
  -- the UTC wall clock from the instant's microseconds (the same text as through a time-zone conversion, in a third
  -- of the time)
  strftime(make_timestamp(epoch_us(created_at)), '%Y-%m-%dT%H:%M:%S+00:00') as created_at_iso,
  text, favorites, retweets, replies, views, mentioned_ids, row_hash,
  make_timestamp(epoch_us(created_at))::DATE as day
from int_tweets;
