-- A state written before st.tweets kept each delivery's content hash (row_hash, as stg_tweets computes it).
alter table st.tweets add column row_hash ubigint;
update st.tweets
set row_hash = hash(tweet_id, author_id, created_at, text, favorites, retweets, replies, views, mentioned_ids);
