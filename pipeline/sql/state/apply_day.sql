-- Write the day (build_date) folded by the models into the state; the caller has rewound the state to the day
-- before and wraps both in one transaction. A from-scratch fold (state_rebuild) writes every run and event it derived.
update st.follow_runs r set valid_to = c.valid_to
from int_runs_closed c
where r.source_id = c.source_id and r.target_id = c.target_id and r.valid_from = c.valid_from and r.valid_to is null;
insert into st.follow_runs
select source_id, target_id, subscribed_at, valid_from, valid_to, is_baseline from int_runs_opened order by valid_from, source_id;
insert into st.follow_events
select event_date, source_id, target_id, kind from int_day_events order by event_date, source_id, target_id;
insert into st.follow_scans
select scan_date, source_id, scanned_at, following_count from int_day_scans order by scan_date, source_id;
insert into st.follow_sources
select min(scan_date), source_id from int_day_scans
where source_id not in (select source_id from st.follow_sources)
group by source_id order by 1, 2;
insert into st.follower_counts
select scan_date, platform_id, followers_count from stg_follower_counts order by scan_date, platform_id;
insert into st.tweets by name
select ingest_date, tweet_id, author_id, created_at, text, favorites, retweets, replies, views, mentioned_ids, row_hash
from stg_tweets order by ingest_date, tweet_id;
-- every delivery of a tweet this fold delivered again points to the one after it
update st.tweets t set superseded_on = n.next_date
from (
  select tweet_id, ingest_date, lead(ingest_date) over (partition by tweet_id order by ingest_date) as next_date
  from st.tweets where tweet_id in (select tweet_id from stg_tweets)
) n
where t.tweet_id = n.tweet_id and t.ingest_date = n.ingest_date and n.next_date is not null
  and t.superseded_on is distinct from n.next_date;
