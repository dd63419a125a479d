-- One row per (account, look-back of 7 or 30 days, smart follower that arrived, left, or stayed while trust started
-- or stopped reaching it since build_date - days), with what that follower moved:
--   arrived: the points the account would lose without its weight today;
--   left: the (negative) points its weight would add today, from the follower's trust today less what the account
--     passes it (when the account follows it: a follow-back farm's member weighed nothing and moves nothing);
--   trusted: a follower held then and now, not a seed, that counts today and scored 0 then (it held no trust):
--     the points the account would lose without its weight today;
--   untrusted: a follower held then and now, not a seed, that scored above 0 then and scores 0 today, not counting
--     (the account follows it back neither then nor now, so it did not owe its trust to the account): the (negative)
--     points one trusted follower adds today. (A follower that scored above 0 then only through followers passing it
--     less than a unit held no trust then either: listed all the same.)
--   A seed's trust also comes from its endowment, which its score does not show: its changes of trust are not
--   listed (other_points in score_explanations).
-- Followers then = the follows whose run was open on that day (the latest scan of the follower on or before that
-- day held the follow). Unlike int_growth, a follow found by its follower's first scan after that day (an account
-- monitored since) arrived: the score did not count it then. A look-back day never scored has no rows: its window's
-- change is unknown (score_Nd_ago NULL), and so are its parts (on an install's first nights, every follow would count
-- as an arrival).
create or replace table int_score_changes as
with lookbacks as (
  select days, getvariable('build_date') - days as since from (select unnest([7, 30]) as days)
  where getvariable('build_date') - days in (select score_date from stg_score_history_dates)
),
-- the follows held on a look-back day and closed since (the pair may have been followed again): their runs opened on
-- or before that day and closed after it
closed_since as (
  select l.days, r.source_id, r.target_id
  from int_runs r
  join lookbacks l on r.valid_from <= l.since and r.valid_to > l.since
  where r.valid_to > (select min(since) from lookbacks)
),
-- a current smart follow arrived when no run held it on the look-back day: its open run opened after that day, and
-- no closed run held it then
arrived as (
  select l.days, r.source_id, r.target_id
  from int_runs r
  join int_smart_followers f on f.follower_id = r.source_id and f.target_id = r.target_id
  join lookbacks l on r.valid_from > l.since
  where r.valid_to is null and r.valid_from > (select min(since) from lookbacks)
    and not exists (select 1 from closed_since c
                    where c.days = l.days and c.source_id = r.source_id and c.target_id = r.target_id)
),
-- a follow held on the look-back day left when no run holds it now (followers smart today, as int_growth); a follow
-- whose run is still open is held now, in the smart graph unless its target is gone from the reference tables
-- (an account no explanation lists)
departed as (
  select c.days, c.source_id, c.target_id
  from closed_since c
  join int_accounts a on a.platform_id = c.source_id and a.is_smart
  where not exists (select 1 from int_smart_edges e where e.source_id = c.source_id and e.target_id = c.target_id)
),
-- the followers trust started or stopped reaching, per look-back, seeds aside: their score crossed 0 (an account
-- that holds trust scores above 0: one that scored 0 then held none, one that scores 0 today holds none); few, so
-- their follows are read from the smart graph rather than every follow's runs
turned as (
  select l.days, l.since, h.platform_id, s.platform_score > 0 as trusted
  from lookbacks l
  join int_score_ago h on h.days = l.days
  join int_scores s on s.platform_id = h.platform_id
  anti join int_score_seeds k on k.platform_id = h.platform_id
  where (h.score_ago = 0) <> (s.platform_score = 0)
),
-- the accounts that followed an untrusted follower on the look-back day: it may have owed them all its trust then
followed_then as (
  select t.days, b.source_id as account_id, b.target_id as follower_id
  from turned t
  join int_runs b on b.target_id = t.platform_id
  where not t.trusted and b.valid_from <= t.since and (b.valid_to is null or b.valid_to > t.since)
),
-- their follows held then and now (not arrivals), with the weight each carries today and whether the account follows
-- the follower back, now or on the look-back day
turned_follows as (
  select t.days, e.target_id, e.source_id, t.trusted, c.weight,
    r.source_id is not null or b.account_id is not null as reciprocal
  from turned t
  join int_smart_edges e on e.source_id = t.platform_id
  left join int_score_contributions c on c.source_id = e.source_id and c.target_id = e.target_id
  left join int_score_reciprocal r on r.source_id = e.source_id and r.target_id = e.target_id
  left join followed_then b on b.days = t.days and b.account_id = e.target_id and b.follower_id = e.source_id
  anti join arrived a on a.days = t.days and a.source_id = e.source_id and a.target_id = e.target_id
)
select a.days, a.target_id, a.source_id as follower_id, 'arrived' as change,
  weight_points(t.audience, t.size_divisor, coalesce(c.weight, 0)) as points
from arrived a
left join int_score_contributions c on c.target_id = a.target_id and c.source_id = a.source_id
left join int_scores t on t.platform_id = a.target_id
union all
select d.days, d.target_id, d.source_id, 'left',
  weight_points(t.audience, t.size_divisor, -follower_weight(coalesce(f.trust, 0) - coalesce(x.share, 0)))
from departed d
left join int_scores t on t.platform_id = d.target_id
left join int_trust f on f.platform_id = d.source_id
-- what the account passes the follower, when it follows it: the follower would hold only the rest for it
left join int_score_contributions x on x.source_id = d.target_id and x.target_id = d.source_id
union all
select f.days, f.target_id, f.source_id, if(f.trusted, 'trusted', 'untrusted'),
  weight_points(t.audience, t.size_divisor, if(f.trusted, f.weight, -getvariable('score_unit')))
from turned_follows f
left join int_scores t on t.platform_id = f.target_id
where if(f.trusted, f.weight is not null, f.weight is null and not f.reciprocal);
