-- smart_follows.parquet — grain: one row per (days, bucket, account) in the ranked smart-follows lists, at most 1000
-- per (days, bucket): accounts with ≥1 new smart follower in the window, by new_alpha_followers_diff desc,
-- total_alpha_followers desc, platform_id asc.
-- columns: days, bucket, rank_alpha, pos_by_score, pos_by_followers, account_idx, platform_id, username, name,
--   description, profile_url, profile_image, blue_verified, platform_score, platform_score_diff, current_followers,
--   followers_diff, total_alpha_followers, new_alpha_followers, new_alpha_followers_diff, top_alpha_followers
-- sort: days, bucket, rank_alpha
create or replace table smart_follows as
with gains as (
  select
    days, bucket, target_id,
    count(*) filter (where period = 'current') as new_alpha_followers,
    count(*) filter (where period = 'previous') as previous_alpha_followers
  from int_window_gains
  group by days, bucket, target_id
),
totals as (
  select b.bucket, sf.target_id, count(*) as total_alpha_followers
  from int_smart_followers sf
  join int_bucket_members b on b.platform_id = sf.follower_id
  group by b.bucket, sf.target_id
),
ranked as (
  select
    g.days, g.bucket, g.target_id, g.new_alpha_followers,
    g.new_alpha_followers - g.previous_alpha_followers as new_alpha_followers_diff,
    coalesce(t.total_alpha_followers, 0) as total_alpha_followers,
    row_number() over (
      partition by g.days, g.bucket
      order by g.new_alpha_followers - g.previous_alpha_followers desc, coalesce(t.total_alpha_followers, 0) desc,
        g.target_id
    ) as rank_alpha
  from gains g
  left join totals t on t.bucket = g.bucket and t.target_id = g.target_id
  where g.new_alpha_followers >= 1
  qualify rank_alpha <= 1000
),
top_followers as (
  select
    w.days, w.bucket, w.target_id,
    list(
      {'name': coalesce(f.name, ''), 'username': f.username, 'image': coalesce(f.profile_image, ''),
       'score': s.platform_score, 'verified': f.blue_verified}
      order by s.platform_score desc, w.follower_id
    )[1:5] as top_alpha_followers
  from int_window_gains w
  join ranked r on r.days = w.days and r.bucket = w.bucket and r.target_id = w.target_id
  join int_accounts f on f.platform_id = w.follower_id
  join int_scores s on s.platform_id = w.follower_id
  where w.period = 'current'
  group by w.days, w.bucket, w.target_id
),
-- a listed monitored account's follower count as of `days` ago (its last scan of the 30 days ending then,
-- counted_by), from the stored counts of the listed accounts only
followers_ago as (
  select c.platform_id, r.days, arg_max(c.followers_count, c.scan_date) as followers_count
  from int_follower_counts c
  join (
    select distinct r.days, r.target_id from ranked r
    join int_accounts a on a.platform_id = r.target_id and a.is_monitored
  ) r on r.target_id = c.platform_id
  where counted_by(c.scan_date, getvariable('build_date') - r.days)
  group by c.platform_id, r.days
),
items as (
  select
    r.days::integer as days, r.bucket, r.rank_alpha::integer as rank_alpha,
    a.account_idx, a.platform_id, a.username, coalesce(a.name, '') as name,
    coalesce(a.description, '') as description, '/' || a.username as profile_url,
    coalesce(a.profile_image, '') as profile_image, a.blue_verified,
    s.platform_score, round(s.platform_score - coalesce(h.score_ago, s.platform_score), 2) + 0 as platform_score_diff,
    a.followers_count as current_followers,
    coalesce(a.followers_count - fa.followers_count, 0)::bigint as followers_diff,
    r.total_alpha_followers::bigint as total_alpha_followers,
    r.new_alpha_followers::bigint as new_alpha_followers,
    r.new_alpha_followers_diff::bigint as new_alpha_followers_diff,
    tf.top_alpha_followers
  from ranked r
  join int_accounts a on a.platform_id = r.target_id
  join int_scores s on s.platform_id = r.target_id
  left join int_score_ago h on h.platform_id = r.target_id and h.days = r.days
  left join followers_ago fa on fa.platform_id = r.target_id and fa.days = r.days
  join top_followers tf on tf.days = r.days and tf.bucket = r.bucket and tf.target_id = r.target_id
)
select
  days, bucket, rank_alpha,
  (row_number() over (partition by days, bucket order by platform_score desc, platform_id) - 1)::integer
    as pos_by_score,
  (row_number() over (partition by days, bucket order by current_followers desc, platform_id) - 1)::integer
    as pos_by_followers,
  * exclude (days, bucket, rank_alpha)
from items
order by days, bucket, rank_alpha;
