-- The follow graph over time. Each monitored account (source) has a list of edges, each a timeline on follow-scan
-- day numbers (0 = baseline, scan_window = end date): present from `born` until `died`, again from `reborn`
-- (32767 = never). A random edge goes to a generic account drawn either by popularity (a Zipf law over the
-- popularity rank, so in-degree is a power law) or by latent quality: monitored accounts are the "smart" audience and
-- follow high-quality accounts more often than popularity predicts, the more so the higher their own quality (a
-- source of quality q draws 70% + 30%·q of its follows by quality). A follow by quality draws the rank in the quality
-- order half the time from the same Zipf law as popularity (the best accounts gather the most follows) and half the
-- time with probability ∝ exp(-quality_pull · quantile) (quality matters across the whole range). The structure
-- edges below override random ones. A source changes its list only on its "session" days, which are scan days once
-- the source is scanned, so every change is seen on the day it happens; a source that joined the monitored set later
-- (its first scan, its baseline, on that day) shows the changes before it as the state of its first scan.

create table trend_target as
select r, (row_number() over (order by rnd(r, 0, 50), r) - 1)::INTEGER as idx
from entity
where role is null and kind = 'account' and is_active and not is_suspended and r >= 30
  and r in (select r from accounts where name <> '')
qualify idx < 16;

-- a few monitored Venture Capitals / Influencers / Angels with guaranteed recent events, so every smart-follows
-- bucket and every window (1, 7, 30 days and the previous 30) has data at every scale (monitored from the first day:
-- the follows of an account that joins later are in its first scan, no events)
create table bucket_follower as
select r, category_id, (row_number() over (order by category_id, rank_in_category) - 1)::INTEGER as idx
from (
  select c.r, c.category_id,
    row_number() over (partition by c.category_id order by rnd(c.r, c.category_id, 51), c.r) as rank_in_category
  from account_category c join entity e using (r)
  where c.category_id in (1, 7, 8) and e.role is null and e.is_monitored and e.is_active and not e.is_suspended
    and joined_days_ago(e.r, e.role) is null
    -- an account in several buckets follows for its first one only
    and c.category_id = (select min(c2.category_id) from account_category c2
                         where c2.r = c.r and c2.category_id in (1, 7, 8))
)
where rank_in_category <= getvariable('n_bucket_followers');

-- ordinary monitored accounts lend the odd follow to structure (lonely accounts, bot farm targets) and are the
-- attacks' targets: monitored from the first day, so their planted follows are seen when they happen
create table ordinary as
select r, (row_number() over (order by rnd(r, 0, 52), r) - 1)::INTEGER as idx
from entity
where role is null and kind = 'account' and is_monitored and is_active and not is_suspended
  and joined_days_ago(r, role) is null
  and r not in (select r from bucket_follower);

-- attack accomplices: those carrying a seed category sell their follow, the others form reciprocal pairs, follow-back
-- farms and Sybil cliques; every attack has its own ordinary target and starts 2 to 21 days before the end date
create table accomplice as
select r, seed_category, (row_number() over (partition by seed_category order by r) - 1)::INTEGER as idx
from (
  select e.r, exists (select 1 from account_category c where c.r = e.r and c.category_id in (1, 2, 4, 5))
    as seed_category
  from entity e where e.role = 'accomplice'
);

create table attack_member as
with sized as (
  select *,
    getvariable('n_pairs') as pairs,
    getvariable('n_pairs') + getvariable('n_fb_farms') * getvariable('fb_farm_size') as farms_end,
    getvariable('n_pairs') + getvariable('n_fb_farms') * getvariable('fb_farm_size')
      + getvariable('n_cliques') * getvariable('clique_size') as cliques_end
  from accomplice
)
select r,
  case when seed_category then 'bought_seed_follow' when idx < pairs then 'reciprocal_pair'
       when idx < farms_end then 'follow_back_farm' else 'sybil_clique' end as kind,
  case when seed_category then idx
       when idx < pairs then getvariable('n_bought_seed') + idx
       when idx < farms_end then getvariable('n_bought_seed') + pairs + (idx - pairs) // getvariable('fb_farm_size')
       else getvariable('n_bought_seed') + pairs + getvariable('n_fb_farms')
            + (idx - farms_end) // getvariable('clique_size')
  end::INTEGER as attack_no
from sized
where (seed_category and idx < getvariable('n_bought_seed')) or (not seed_category and idx < cliques_end);

create table attack as
select distinct m.attack_no, m.kind, o.r as target_r, (getvariable('scan_window') - 2 - m.attack_no % 20)::INTEGER as born
from attack_member m
join ordinary o on o.idx = getvariable('n_lonely') + 2 * getvariable('n_farms') + m.attack_no;

create table structure_edge as
with member as (select r, role, role_index from entity where role is not null),
bot as (
  select r, role_index // getvariable('n_bots_per_farm') as farm, role_index % getvariable('n_bots_per_farm') as m
  from member where role = 'bot'
),
farm_target as (select r, role_index as farm from member where role = 'bot_target'),
bucket_day as (select k, getvariable('scan_window') - days_ago as d
               from (values (0, 0), (1, 3), (2, 12), (3, 25), (4, 45)) v(k, days_ago))
-- follow-for-follow ring: everyone follows everyone, nobody else follows them
select a.r as src, b.r as dst, 0 as born, 32767 as died, 32767 as reborn
from member a join member b on a.role = 'ring' and b.role = 'ring' and a.r <> b.r
union all
-- gems: two to four top accounts follow each
select t.r, g.r, 0, 32767, 32767
from member g, range(4) k(k), member t
where g.role = 'gem' and k.k < 2 + g.role_index % 3
  and t.role = 'top' and t.role_index = (g.role_index * 7 + 3 * k.k) % getvariable('n_top')
union all
-- lonely small accounts: one ordinary follower each
select o.r, l.r, 0, 32767, 32767
from member l join ordinary o on l.role = 'lonely' and o.idx = l.role_index
union all
-- bot farms: every bot follows its target (30% in a burst during the last week) and three fellow bots
select b.r, t.r,
  case when rnd(b.r, 0, 53) < 0.3 then getvariable('scan_window') - 1 - t.farm % 5 else 0 end, 32767, 32767
from bot b join farm_target t using (farm)
union all
select b.r, o.r, 0, 32767, 32767
from bot b, (values (1), (2), (5)) s(step), bot o
where o.farm = b.farm and o.m = (b.m + s.step) % getvariable('n_bots_per_farm')
union all
-- ... and two ordinary accounts follow each target, so its followers are mostly, not only, bots
select o.r, t.r, 0, 32767, 32767
from farm_target t, range(2) k(k), ordinary o
where o.idx = getvariable('n_lonely') + 2 * t.farm + k.k
union all
-- accounts that also have a friend record, followed only by bots: main score ~0, graph score > 0;
-- one bot follows since the baseline, a second one followed (even) or unfollowed (odd) recently
select b.r, z.r, 0, 32767, 32767
from member z join bot b on z.role = 'overlap_zero'
  and b.farm = z.role_index % getvariable('n_farms') and b.m = z.role_index % getvariable('n_bots_per_farm')
union all
select b.r, z.r,
  case when z.role_index % 2 = 0 then getvariable('scan_window') - 1 - z.role_index % 7 else 0 end,
  case when z.role_index % 2 = 0 then 32767 else getvariable('scan_window') - 1 - z.role_index % 7 end, 32767
from member z join bot b on z.role = 'overlap_zero'
  and b.farm = z.role_index % getvariable('n_farms') and b.m = (z.role_index + 3) % getvariable('n_bots_per_farm')
union all
-- bucket followers: on each bucket day two new follows of trending accounts and one unfollow
select f.r, t.r, d.d, 32767, 32767
from bucket_follower f, bucket_day d, range(2) j(j), trend_target t
where t.idx = (f.idx + 3 * d.k + j.j) % 16
union all
select f.r, t.r, 0, d.d, 32767
from bucket_follower f, bucket_day d, trend_target t
where t.idx = (f.idx + 3 * d.k + 2) % 16
union all
-- attacks: every accomplice follows its target (and nothing else but its clique) ...
select m.r, a.target_r, a.born, 32767, 32767
from attack_member m join attack a using (attack_no)
union all
-- ... pairs and farms are followed back ...
select a.target_r, m.r, a.born, 32767, 32767
from attack_member m join attack a using (attack_no)
where m.kind in ('reciprocal_pair', 'follow_back_farm')
union all
-- ... and clique members follow each other
select m.r, o.r, a.born, 32767, 32767
from attack_member m join attack_member o using (attack_no) join attack a using (attack_no)
where m.kind = 'sybil_clique' and m.r <> o.r;

create table source as
select r, account_id, role,
  case
    when role = 'bot' then 3 + rnd_int(r, 0, 54, 12)
    when r in (select r from attack_member) then 0
    when role = 'ring' then 5 + rnd_int(r, 0, 54, 25)
    when rnd(r, 0, 55) < 0.01 then 0  -- an empty following list is a real, empty scan
    else least(getvariable('n_generic') // 2,
               round(getvariable('out_degree') * exp(0.9 * normal(r, 0, 56) - 0.405)))
  end::INTEGER as draws,
  0.7 + 0.3 * quality as quality_share,
  list_sort(list_distinct(list_transform(
    range(case when rnd(r, 0, 57) < 0.55 then 0 when rnd(r, 0, 57) < 0.85 then 1
               when rnd(r, 0, 57) < 0.96 then 2 else 3 end),
    k -> 1 + rnd_int(r, k, 58, getvariable('scan_window'))::INTEGER))) as sessions,
  -- the crawler's cadence: 75% of the monitored accounts are rescanned every day, the rest every 2 to 5 days
  -- (from a random phase); session days are scan days whatever the cadence
  list_filter(range(1, getvariable('scan_window') + 1),
    d -> rnd(r, 0, 59) < 0.75 or (d + rnd_int(r, 0, 60, 5)) % (2 + rnd_int(r, 0, 64, 4)) = 0)::INTEGER[]
    as extra_days,
  -- an account that joined the monitored set later is first scanned on the day it joined (its baseline)
  (getvariable('scan_window') - coalesce(joined_days_ago(r, role), getvariable('scan_window')))::INTEGER as first_scan
from entity
where is_monitored;

-- the fate of a random edge in a source with sessions: 5% new on a session day, 2% unfollowed on one, and with two
-- sessions or more 0.5% followed then unfollowed, 0.5% unfollowed then followed again
create or replace macro edge_fate(u, n_sessions) as
  case when n_sessions = 0 then 'stable' when u < 0.05 then 'new' when u < 0.07 then 'dropped'
       when n_sessions >= 2 and u < 0.075 then 'blip' when n_sessions >= 2 and u < 0.08 then 'refollow'
       else 'stable' end;

-- how strongly the exponential half of the quality-driven follows prefers quality: the account at quality quantile p
-- (0 = best) is drawn with probability ∝ exp(-quality_pull · p)
set variable quality_pull = 4;
-- the accounts in quality order (pos 1 = best): a follow by quality draws a position, then joins to its account
create or replace table quality_order as
select row_number() over (order by quality desc, r) as pos, r from entity where r < getvariable('n_generic');

create table follow_edges as
with draw as (
  -- a follow by quality draws a position in the quality order (null: a follow by popularity)
  select r, j,
    case
      when rnd(r, j, 110) >= quality_share then null
      when rnd(r, j, 112) < 0.5 then 1 + zipf(rnd(r, j, 111), getvariable('n_generic'), getvariable('follow_zipf'))
      else 1 + least(getvariable('n_generic') - 1, floor(getvariable('n_generic')
             * -ln(1 - rnd(r, j, 111) * (1 - exp(-getvariable('quality_pull')))) / getvariable('quality_pull'))::BIGINT)
    end as quality_pos
  from (select r, quality_share, unnest(range(draws)) as j from source)
),
picked as (
  select d.r, coalesce(q.r, zipf(rnd(d.r, d.j, 63), getvariable('n_generic'), getvariable('follow_zipf'))) as x
  from draw d
  left join quality_order q on q.pos = d.quality_pos
),
drawn as (
  select r, list_sort(list_distinct(list(x))) as xs from picked where x <> r group by r
),
random_edge as (
  select s.r, s.sessions, s.extra_days, s.first_scan,
    list_transform(coalesce(d.xs, []),
      x -> {'r': x, 'fate': edge_fate(rnd(s.r, x, 61), len(s.sessions)),
            'day': s.sessions[1 + rnd_int(s.r, x, 62, len(s.sessions))]}) as drawn
  from source s
  left join drawn d using (r)
),
structure as (
  select src as r,
    list(dst order by dst) as dsts,
    list({'account_id': id_of(dst), 'born': born::INTEGER, 'died': died::INTEGER, 'reborn': reborn::INTEGER}
         order by dst) as edges,
    list_filter(flatten(list([born, died, reborn]::INTEGER[])), d -> d between 1 and getvariable('scan_window')) as days
  from structure_edge
  group by src
)
select e.r, id_of(e.r) as account_id,
  list_concat(
    list_transform(
      list_filter(e.drawn, x -> not list_contains(coalesce(st.dsts, []), x.r)),
      x -> {'account_id': id_of(x.r),
            'born': case x.fate when 'new' then x.day when 'blip' then e.sessions[1] else 0 end,
            'died': case x.fate when 'dropped' then x.day when 'blip' then e.sessions[-1]
                                when 'refollow' then e.sessions[1] else 32767 end,
            'reborn': case x.fate when 'refollow' then e.sessions[-1] else 32767 end}),
    coalesce(st.edges, [])) as edges,
  list_filter(list_sort(list_distinct(list_concat([e.first_scan], e.sessions, e.extra_days, coalesce(st.days, [])))),
    d -> d >= e.first_scan) as scan_days
from random_edge e
left join structure st using (r);
