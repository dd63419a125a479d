-- smart_mentions.parquet — grain: one row per (mentioned known account, tweet) whose author is smart (monitored,
-- active, not suspended); self-mentions excluded. The rows of mentions.parquet with a smart author.
-- columns: target_idx, target_id, tweet_idx, author_idx, author_id, created_at, epoch_s
-- sort: target_idx, created_at desc, tweet_id desc (= target_idx, tweet_idx)
create or replace table smart_mentions as
select m.*
from mentions m
join int_accounts a on a.account_idx = m.author_idx and a.is_smart
order by m.target_idx, m.tweet_idx;
