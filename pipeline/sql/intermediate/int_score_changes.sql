-- One row per (account, look-back of 7 or 30 days, smart follower that arrived or left since build_date - days),
-- with what that follower moved: for an arrival, the points the account would lose without its weight today; for a
-- departure, the (negative) points its weight would add today, from the follower's trust and out-degree today.
-- Followers then = the follows whose run was open on that day (the latest scan of the follower on or before that
-- day held the follow), as int_growth counts them. A look-back day never scored has no rows: its window's change is
-- unknown (score_Nd_ago NULL), and so are its parts (on an install's first nights, every follow would count as an
-- arrival).
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
)
select a.days, a.target_id, a.source_id as follower_id, 'arrived' as change,
  score_points(coalesce(t.audience, 0), coalesce(t.size_divisor, 1))
    - score_points(coalesce(t.audience, 0) - coalesce(c.weight, 0), coalesce(t.size_divisor, 1)) as points
from arrived a
left join int_score_contributions c on c.target_id = a.target_id and c.source_id = a.source_id
left join int_scores t on t.platform_id = a.target_id
union all
select d.days, d.target_id, d.source_id, 'left',
  score_points(coalesce(t.audience, 0), coalesce(t.size_divisor, 1))
    - score_points(coalesce(t.audience, 0)
                   + follower_weight(saturated_share(coalesce(f.trust, 0), coalesce(o.outdegree, 0) + 1)),
                   coalesce(t.size_divisor, 1))
from departed d
left join int_scores t on t.platform_id = d.target_id
left join int_trust f on f.platform_id = d.source_id
left join int_score_outdegree o on o.source_id = d.source_id;
