-- One row per stored tweet created before the end of build_date (UTC), with its text for display: each short link
-- replaced by its display form (whole links only), remaining short links stripped.
create or replace table int_tweets as
select
  tweet_id, author_id, created_at, favorites, retweets, replies, views, mentioned_ids,
  trim(regexp_replace(
    list_reduce(
      list_transform(coalesce(urls, []), lambda u: u.short_url || chr(0) || u.display_url),
      lambda display, pair: regexp_replace(
        display,
        regexp_escape(split_part(pair, chr(0), 1)) || '\b',
        replace(split_part(pair, chr(0), 2), '\', '\\'),
        'g'),
      text),
    '\s*https?://t\.co/[A-Za-z0-9]+', '', 'g')) as text
from stg_tweets
where created_at < cast(getvariable('build_date') + 1 as timestamptz);
