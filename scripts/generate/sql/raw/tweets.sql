-- one row per stored tweet that mentions at least one account, spread over tweet_days UTC days ending with the end
-- date. Authors lean to popular accounts (12% unknown ids); mentions lean harder (Zipf), 2% hit the structure
-- accounts, 1% are unknown ids, 3% of tweets mention their author. Tweet ids are snowflakes of the creation time.
with tweet as (
  select i,
    epoch_ms((getvariable('end_date') - getvariable('tweet_days') + 1)::TIMESTAMP) // 1000
      + (i * getvariable('tweet_days') * 86400 // getvariable('n_tweets'))
      + rnd_int(i, 0, 73, greatest(1, getvariable('tweet_days') * 86400 // getvariable('n_tweets'))) as epoch_s,
    case when rnd(i, 0, 74) < 0.12 then getvariable('n_known') + rnd_int(i, 0, 75, getvariable('n_unknown'))
         else zipf(rnd(i, 0, 76), getvariable('n_known'), 0.6) end as author_r,
    case when rnd(i, 0, 77) < 0.15 then 0 when rnd(i, 0, 77) < 0.8 then 1 else 2 end as n_links,
    ['gm', 'Big news:', 'Thread 🧵', 'Hot take:', 'Congrats to', 'Just read this from', 'Listening to', 'ICYMI',
     'Watching', 'Thanks'][1 + rnd_int(i, 0, 78, 10)] as opener,
    ['on the new staking rewards', 'this is huge for DeFi', 'what are your thoughts?', 'incredible work 👏',
     'bullish', 'read this before the unlock', 'live in 10 minutes', 'the audit report is out',
     'señor, this is a casino', 'numbers go up'][1 + rnd_int(i, 0, 79, 10)] as phrase,
    [0, 0, 0, 60, 120, 180, -300, -240, -420, -480, 330, 345, 480, 540, -210, 600][1 + rnd_int(i, 0, 80, 16)]
      as offset_min
  from range(getvariable('n_tweets')) t(i)
),
mentioning as (
  select *,
    list_sort(list_distinct(list_concat(
      case when rnd(i, 0, 81) < 0.03 then [author_r] else [] end,
      list_transform(range(1 + (rnd(i, 0, 82) < 0.35)::INTEGER + (rnd(i, 0, 82) < 0.12)::INTEGER
                             + (rnd(i, 0, 82) < 0.04)::INTEGER),
        k -> case when rnd(i, k, 83) < 0.01 then getvariable('n_known') + rnd_int(i, k, 84, getvariable('n_unknown'))
                  when rnd(i, k, 83) < 0.03
                    then getvariable('n_generic') + rnd_int(i, k, 85, getvariable('n_known') - getvariable('n_generic'))
                  else zipf(rnd(i, k, 86), getvariable('n_generic'), 1.1) end)))) as mentioned_r,
    list_transform(range(n_links), k -> 'https://t.co/' || base62(i, k, 87, 10)) as links,
    round(exp(5.5 + 1.6 * normal(i, 0, 88)) * pow(getvariable('n_known') / (author_r + 1.0), 0.35)) as views
  from tweet
)
select
  ((epoch_s * 1000 + rnd_int(i, 0, 89, 1000) - 1288834974657)::UBIGINT << 22) | (i % 4194304)::UBIGINT as tweet_id,
  id_of(author_r) as author_id,
  strftime(to_timestamp(epoch_s + offset_min * 60)::TIMESTAMP, '%Y-%m-%dT%H:%M:%S')
    || case when offset_min < 0 then '-' else '+' end
    || lpad((abs(offset_min) // 60)::VARCHAR, 2, '0') || ':' || lpad((abs(offset_min) % 60)::VARCHAR, 2, '0')
    as created_at,
  case when rnd(i, 0, 90) < 0.005 then null
       else concat_ws(' ', opener, array_to_string(list_transform(mentioned_r, x -> '@' || handle_of(x)), ' '),
                      phrase, nullif(array_to_string(links, ' '), '')) end as text,
  case when rnd(i, 0, 90) < 0.005 then []
       else list_transform(list_filter(range(n_links), k -> rnd(i, k, 91) < 0.9),
         k -> {'short_url': links[k + 1],
               'display_url': ['github.com/', 'coindesk.com/markets/', 'mirror.xyz/', 'youtu.be/', 'etherscan.io/tx/0x',
                               'medium.com/@', 'x.com/i/spaces/', 'dune.com/'][1 + rnd_int(i, k, 92, 8)]
                              || base62(i, k, 93, 8)})
  end as urls,
  round(views * 0.04 * rnd(i, 0, 94))::BIGINT as favorites,
  round(views * 0.008 * rnd(i, 0, 95))::BIGINT as retweets,
  round(views * 0.004 * rnd(i, 0, 96))::BIGINT as replies,
  views::BIGINT as views,
  list_transform(mentioned_r, x -> id_of(x)) as mentioned_ids
from mentioning
