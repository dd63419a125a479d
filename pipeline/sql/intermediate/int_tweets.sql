-- One row per stored tweet created before the end of build_date (UTC), with its text for display: the text is cut
-- around its short links (whole links, so https://t.co/Ab1 never matches inside https://t.co/Ab12); each link becomes
-- its display form from `urls`, or is stripped with the whitespace before it when `urls` does not cover it.
create or replace table int_tweets as
with split as (
  select
    *,
    regexp_extract_all(text, 'https?://t\.co/[A-Za-z0-9]+') as links,
    regexp_split_to_array(text, 'https?://t\.co/[A-Za-z0-9]+') as pieces
  from stg_tweets
  where created_at < cast(getvariable('build_date') + 1 as timestamptz)
)
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
from split;
