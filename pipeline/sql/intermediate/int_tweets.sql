-- One row per stored tweet created before the end of build_date (UTC), with its text for display: the text is cut
-- around its short links (whole links, so https://t.co/Ab1 never matches inside https://t.co/Ab12); each link becomes
-- its display form from `urls`, or is stripped with the whitespace before it when `urls` does not cover it. The
-- display text keeps at most 4,000 characters (longer ones end with '…'). Tweets come from the state and the days
-- this build folds; a tweet delivered on several days is its latest delivery.
create or replace table int_tweets as
with delivered as (
  select * from state_tweets
  union all
  select * from stg_tweets
),
split as (
  select
    *,
    regexp_extract_all(text, 'https?://t\.co/[A-Za-z0-9]+') as links,
    regexp_split_to_array(text, 'https?://t\.co/[A-Za-z0-9]+') as pieces
  from delivered
  where created_at < cast(getvariable('build_date') + 1 as timestamptz)
  qualify row_number() over (partition by tweet_id order by ingest_date desc) = 1
),
displayed as (
select
  tweet_id, author_id, created_at, favorites, retweets, replies, views, mentioned_ids,
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
select * replace (if(length(text) > 4000, left(text, 3999) || '…', text) as text)
from displayed;
