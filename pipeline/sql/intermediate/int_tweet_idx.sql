-- The stored tweets in the snapshot's tweet order (created_at desc, tweet_id desc), without their text: tweet_idx is
-- a tweet's position in that order, which is the order of the tweets parts read newest month first
-- (pipeline/history-parts.ts), and what the mentions refer to.
create or replace table int_tweet_idx as
select
  (row_number() over (order by t.created_at desc, t.tweet_id desc) - 1)::integer as tweet_idx,
  t.tweet_id, t.author_id, a.account_idx as author_idx, t.created_at
from int_tweets t
left join int_accounts a on a.platform_id = t.author_id;
