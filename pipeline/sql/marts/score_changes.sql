-- score_changes.parquet — grain: one row per (account, days ∈ {7, 30}, smart follower that arrived or left since
-- build date − days, or stayed while trust started or stopped reaching it), the 20 that moved the score most (what
-- get_score_explanation lists); the counts and sums over all of them are in score_explanations.parquet.
-- columns: account_idx, platform_id, days, position (0-based within account and days, by |points| desc then
--   follower_id), change ('arrived' | 'left' | 'trusted' | 'untrusted'), follower_idx, follower_id,
--   follower_is_seed, points (what the follower moved, 2 decimals: an arrival's or a newly trusted follower's points
--   are what the account would lose without its share today, ≥ 0; a departure's are what its share would add today,
--   negated, ≤ 0; an untrusted follower's what one trusted follower adds today, negated, ≤ 0)
-- sort: account_idx, days, position
create or replace table score_changes as
select
  t.account_idx, c.target_id as platform_id, c.days,
  (row_number() over (partition by c.target_id, c.days order by abs(c.points) desc, c.follower_id) - 1)::integer
    as position,
  c.change, f.account_idx as follower_idx, c.follower_id,
  k.platform_id is not null as follower_is_seed,
  round(c.points, 2) + 0 as points  -- + 0: a departure rounded to zero is 0, not −0
from int_score_changes c
join int_accounts t on t.platform_id = c.target_id
join int_accounts f on f.platform_id = c.follower_id
left join int_score_seeds k on k.platform_id = c.follower_id
qualify position < 20
order by t.account_idx, c.days, position;
