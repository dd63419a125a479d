-- entity: one row per id the generator knows, numbered by popularity rank r.
--   r in [0, n_generic)         generic accounts and friend-only records (random follows and mentions land here)
--   r in [n_generic, n_known)   adversarial and test structure (gems, lonely, ring, bot farms, attack
--                               accomplices, ...), all full accounts, never the target of a random follow
--   r in [n_known, n_ids)       unknown ids: tweet authors and mentions in neither table
-- Columns: r, account_id, kind ('account' | 'friend' | 'unknown'), role, role_index, is_monitored, is_active,
-- is_suspended, has_friend_record, followers_end (follower count on the end date), growth (daily log growth),
-- jump_k (days ago a bot farm tripled the count, else null), quality (latent audience quality in [0, 1), drawn
-- independently of popularity: smart accounts follow high-quality accounts more often than popularity predicts, see
-- follow_graph.sql).

create table special_layout as
select role, (getvariable('n_generic') + sum(n) over (order by pos) - n)::BIGINT as first_r, n, monitored
from (values
  (1, 'gem', getvariable('n_gems'), true),
  (2, 'lonely', getvariable('n_lonely'), true),
  (3, 'ring', getvariable('n_ring'), true),
  (4, 'bot_target', getvariable('n_farms'), true),
  (5, 'bot', getvariable('n_farms') * getvariable('n_bots_per_farm'), true),
  (6, 'overlap_zero', getvariable('n_overlap_zero'), false),
  (7, 'accomplice', getvariable('n_accomplices'), true)
) v(pos, role, n, monitored);

-- friend-only records: a random subset of the generic ranks (the ten most popular always have full records)
create table friend_only as
select r from range(10, getvariable('n_generic')) t(r)
order by rnd(r, 0, 3), r
limit getvariable('n_friend_only');

-- the monitored set: weighted sampling without replacement (exponential race), popular accounts more likely
create table generic_monitored as
select r from range(getvariable('n_generic')) t(r)
where r not in (select r from friend_only)
order by -ln(1 - rnd(r, 0, 4)) * pow(r + 1, 0.6), r
limit getvariable('n_generic_monitored');

create table entity_base as
select
  t.r,
  case when t.r >= getvariable('n_known') then 'unknown' when f.r is not null then 'friend' else 'account' end as kind,
  coalesce(s.role, case when top.r is not null then 'top' end) as role,
  coalesce(t.r - s.first_r, top.idx) as role_index,
  coalesce(s.monitored, m.r is not null) as is_monitored
from range(getvariable('n_ids')) t(r)
left join friend_only f on f.r = t.r
left join generic_monitored m on m.r = t.r
left join special_layout s on t.r >= s.first_r and t.r < s.first_r + s.n
left join (select r, row_number() over (order by r) - 1 as idx from generic_monitored qualify idx < getvariable('n_top')) top
  on top.r = t.r;

create table entity as
select
  r,
  id_of(r) as account_id,
  kind,
  role,
  role_index,
  is_monitored,
  -- structure must stay visible: its members are always active and never suspended
  role is not null or rnd(r, 0, 5) >= case when is_monitored then 0.02 else 0.04 end as is_active,
  role is null and rnd(r, 0, 6) < case when is_monitored then 0.012 else 0.02 end as is_suspended,
  kind = 'account' and (role = 'overlap_zero' or (role is null and rnd(r, 0, 7) < 0.03)) as has_friend_record,
  greatest(0, case role
    when 'gem' then 300 + rnd_int(r, 0, 8, 2700)
    when 'lonely' then 30 + rnd_int(r, 0, 8, 770)
    when 'ring' then 800 + rnd_int(r, 0, 8, 7200)
    when 'bot_target' then 40000 + rnd_int(r, 0, 8, 360000)
    when 'bot' then rnd_int(r, 0, 8, 60)
    when 'overlap_zero' then 100 + rnd_int(r, 0, 8, 4900)
    -- power law in the rank, the same shape at every scale, with log-normal noise
    else round(8e6 * pow(1 + r / getvariable('n_generic')::DOUBLE * 1e6, -0.85) * exp(0.5 * normal(r, 0, 9)))
  end)::BIGINT as followers_end,
  case role when 'bot_target' then 0.004 when 'bot' then 0.0 else 0.0008 + 0.0015 * normal(r, 0, 10) end as growth,
  case when role = 'bot_target' then 5 + rnd_int(r, 0, 11, 40) end as jump_k,
  case role
    when 'gem' then 0.85 + 0.15 * rnd(r, 0, 12)
    when 'lonely' then rnd(r, 0, 12)
    when 'ring' then 0.1 * rnd(r, 0, 12)
    when 'bot_target' then 0.1 * rnd(r, 0, 12)
    when 'bot' then 0.0
    when 'overlap_zero' then 0.05 * rnd(r, 0, 12)
    when 'accomplice' then 0.05 * rnd(r, 0, 12)
    else rnd(r, 0, 12)
  end as quality
from entity_base;
