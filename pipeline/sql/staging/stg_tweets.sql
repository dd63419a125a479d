-- One row per stored tweet delivered by the days this build folds, created before the end of build_date (UTC).
-- ingest_date is the day folder that delivered it (the creation day in the single-folder layout). The stored text
-- keeps at most 10,000 characters (the display text is cut further, see int_tweets).
create or replace view stg_tweets as
with delivered as (
  select
    coalesce(
      try_cast(regexp_extract(filename, '(\d{4}-\d{2}-\d{2})[/\\]tweets\.parquet$', 1) as date),
      cast(cast(created_at as timestamptz) as date)) as ingest_date,
    tweet_id, author_id, cast(created_at as timestamptz) as created_at, left(text, 10000) as text, urls,
    favorites, retweets, replies, views, mentioned_ids
  from raw_tweets
)
select * from delivered
where ingest_date between getvariable('ingest_from') and getvariable('build_date')
  and created_at < cast(getvariable('build_date') + 1 as timestamptz);
