-- One row per stored tweet created before the end of build_date (UTC), with its display text (stg_tweets): the
-- state's tweets (each its latest delivery) and the days this build folds (int_tweets_folded: their latest
-- delivery, computed once); a tweet delivered on several days is its latest delivery. A view over the state: the
-- history table reads it by part (its fingerprints, then the parts it writes), never whole.
create or replace table int_tweets_folded as
select tweet_id, author_id, created_at, favorites, retweets, replies, views, mentioned_ids, text, row_hash
from stg_tweets
qualify row_number() over (partition by tweet_id order by ingest_date desc) = 1;

create or replace view int_tweets as
select tweet_id, author_id, created_at, favorites, retweets, replies, views, mentioned_ids, text, row_hash
from state_tweets s
anti join int_tweets_folded f on f.tweet_id = s.tweet_id
where s.created_at < cast(getvariable('build_date') + 1 as timestamptz)
union all
select * from int_tweets_folded;
