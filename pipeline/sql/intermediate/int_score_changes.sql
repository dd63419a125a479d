-- One row per (account, look-back of 7 or 30 days, smart follower that arrived or left since build_date - days),
-- with what that follower moved: for an arrival, the points the account would lose without its weight today; for a
-- departure, the (negative) points its weight would add today, from the follower's trust and out-degree today.
-- Followers then = the follows whose run was open on that day (the latest scan of the follower on or before that
-- day held the follow), as int_growth counts them.
create or replace table int_score_changes as
with lookbacks as (select unnest([7, 30]) as days),
held_then as (
  select l.days, r.source_id, r.target_id
  from int_runs r
  cross join lookbacks l
  where r.valid_from <= getvariable('build_date') - l.days
    and (r.valid_to is null or r.valid_to > getvariable('build_date') - l.days)
),
-- a current smart follow arrived when no run held it on the look-back day
arrived as (
  select l.days, f.follower_id as source_id, f.target_id
  from int_smart_followers f
  cross join lookbacks l
  where not exists (select 1 from held_then h
                    where h.days = l.days and h.source_id = f.follower_id and h.target_id = f.target_id)
),
-- a follow held on the look-back day left when no run holds it now (followers smart today, as int_growth)
departed as (
  select h.days, h.source_id, h.target_id
  from held_then h
  join int_accounts a on a.platform_id = h.source_id and a.is_smart
  where not exists (select 1 from int_smart_edges e where e.source_id = h.source_id and e.target_id = h.target_id)
)
select a.days, a.target_id, a.source_id as follower_id, 'arrived' as change,
  score_points(coalesce(t.audience, 0)) - score_points(coalesce(t.audience, 0) - coalesce(c.weight, 0)) as points
from arrived a
left join int_score_contributions c on c.target_id = a.target_id and c.source_id = a.source_id
left join int_scores t on t.platform_id = a.target_id
union all
select d.days, d.target_id, d.source_id, 'left',
  score_points(coalesce(t.audience, 0))
    - score_points(coalesce(t.audience, 0)
                   + follower_weight(saturated_share(coalesce(f.trust, 0), coalesce(o.outdegree, 0) + 1)))
from departed d
left join int_scores t on t.platform_id = d.target_id
left join int_trust f on f.platform_id = d.source_id
left join int_score_outdegree o on o.source_id = d.source_id;
