-- An account's follower count on the platform is the count drawn from its popularity (followers_at over
-- followers_end: its followers outside the monitored set) plus its followers in the monitored set: every follow of
-- the follow graph present on any generated day (graph_followers.n). So no scan ever shows an account followed by
-- more accounts than its count. The profile counts (accounts, friends) were drawn before the graph and are raised
-- here; the daily counts (raw/follower_counts.sql) add n.

create table graph_followers as
select e.account_id, count(*) as n
from (select unnest(edges) as e from follow_edges)
where e.born <= getvariable('scan_window')
group by e.account_id;

update accounts set followers_count = followers_count + g.n from graph_followers g where g.account_id = accounts.account_id;
update friends set followers_count = followers_count + g.n from graph_followers g where g.account_id = friends.account_id;
