-- One row per stored tweet delivered by the days this build folds, created before the end of build_date (UTC).
-- ingest_date is the day folder that delivered it (the creation day in the single-folder layout). The text is the
-- display text, computed once here: it is cut around its short links (whole links, so https://t.co/Ab1 never
-- matches inside https://t.co/Ab12); each link becomes its display form from `urls`, or is stripped with the
-- whitespace before it when `urls` does not cover it; at most 4,000 characters (longer ones end with '…').
create or replace view stg_tweets as
with delivered as (
  select
    coalesce(
      try_cast(regexp_extract(filename, '(\d{4}-\d{2}-\d{2})[/\\]tweets\.parquet$', 1) as date),
      cast(cast(created_at as timestamptz) as date)) as ingest_date,
    tweet_id, author_id, cast(created_at as timestamptz) as created_at, text, urls,
    favorites, retweets, replies, views, mentioned_ids
  from raw_tweets
),
split as (
  select
    *,
    regexp_extract_all(text, 'https?://t\.co/[A-Za-z0-9]+') as links,
    regexp_split_to_array(text, 'https?://t\.co/[A-Za-z0-9]+') as pieces
  from delivered
  where ingest_date between getvariable('ingest_from') and getvariable('build_date')
    and created_at < cast(getvariable('build_date') + 1 as timestamptz)
),
displayed as (
  select
    ingest_date, tweet_id, author_id, created_at, favorites, retweets, replies, views, mentioned_ids,
    trim(
      array_to_string(
        list_transform(
          range(1, len(links) + 1),
          lambda i: coalesce(
            pieces[i] || list_filter(coalesce(urls, []), lambda u: u.short_url = links[i])[1].display_url,
            rtrim(pieces[i]))),
        '')
      || pieces[-1]
    ) as text
  from split
)
-- row_hash: the hash of a delivery's content, computed once (the state keeps it; the tweets parts' fingerprints sum
-- it instead of reading every stored text)
select *, hash(tweet_id, author_id, created_at, text, favorites, retweets, replies, views, mentioned_ids) as row_hash
from (
  select
    ingest_date, tweet_id, author_id, created_at, if(length(text) > 4000, left(text, 3999) || '…', text) as text,
    favorites, retweets, replies, views, mentioned_ids
  from displayed
);
