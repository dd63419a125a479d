-- tweets.parquet — grain: one row per stored tweet that mentions at least one account (created ≤ build_date).
-- columns: tweet_idx, tweet_id, author_id, author_idx, created_at, created_at_iso, text, favorites, retweets,
--   replies, views
-- sort: tweet_idx (= created_at desc, tweet_id desc)
create or replace table tweets as
select
  (row_number() over (order by t.created_at desc, t.tweet_id desc) - 1)::integer as tweet_idx,
  t.tweet_id, t.author_id, a.account_idx as author_idx, t.created_at,
  -- the UTC wall clock from the instant's microseconds (the same text as through a time-zone conversion, in a third
  -- of the time)
  strftime(make_timestamp(epoch_us(t.created_at)), '%Y-%m-%dT%H:%M:%S+00:00') as created_at_iso,
  t.text, t.favorites, t.retweets, t.replies, t.views
from int_tweets t
left join int_accounts a on a.platform_id = t.author_id
order by tweet_idx;
