-- The tweets of the day folder gen_date: those written that day (UTC), and those written one or two days before that
-- the crawler sees again while their engagement grows (about 40% the next day, 15% the day after). A later delivery
-- replaces the earlier one (docs/raw-data.md): its counters only grow.
select * exclude (gen_day) from gen_tweets where gen_day = getvariable('gen_date')
union all
select tweet_id, author_id, created_at, text, urls,
  round(favorites * growth)::BIGINT as favorites, round(retweets * growth)::BIGINT as retweets,
  round(replies * growth)::BIGINT as replies, round(views * growth)::BIGINT as views, mentioned_ids
from (
  select *, 1 + 0.3 * age + 0.2 * rnd(tweet_id, age, 202) as growth
  from (select *, getvariable('gen_date') - gen_day as age from gen_tweets)
  where (age = 1 and rnd(tweet_id, 1, 201) < 0.4) or (age = 2 and rnd(tweet_id, 2, 201) < 0.15)
)
order by tweet_id
