-- A state written before st.tweets marked its superseded deliveries: each delivery of a tweet delivered again points
-- to the one after it.
alter table st.tweets add column superseded_on date;
update st.tweets t set superseded_on = n.next_date
from (
  select tweet_id, ingest_date, lead(ingest_date) over (partition by tweet_id order by ingest_date) as next_date
  from st.tweets
) n
where t.tweet_id = n.tweet_id and t.ingest_date = n.ingest_date and n.next_date is not null;
