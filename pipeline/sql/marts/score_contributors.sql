-- score_contributors.parquet — grain: one row per (account, smart follower) for the 10 followers that give the
-- account the most weight (fewer when fewer give any); accounts with score 0 have none.
-- columns: account_idx, platform_id, position (0-based, by weight desc, then trust passed desc, then follower_id),
--   follower_idx, follower_id, points (the account's platform_score split in proportion to each follower's weight;
--   2 decimals), share (the follower's weight as a fraction of the account's audience, 4 decimals), follower_is_seed,
--   follower_score, reciprocal (the account follows this follower back: the follower passes only trust it did not
--   receive from it)
-- sort: account_idx, position
create or replace table score_contributors as
with ranked as (
  select
    c.target_id, c.source_id, c.weight, c.reciprocal,
    c.weight / sum(c.weight) over (partition by c.target_id) as fraction,
    (row_number() over (partition by c.target_id order by c.weight desc, c.share desc, c.source_id) - 1)::integer
      as position
  from int_score_contributions c
)
select
  t.account_idx, r.target_id as platform_id, r.position, f.account_idx as follower_idx, r.source_id as follower_id,
  round(s.platform_score * r.fraction, 2) as points,
  round(r.fraction, 4) as share,
  k.platform_id is not null as follower_is_seed,
  fs.platform_score as follower_score,
  r.reciprocal
from ranked r
join int_accounts t on t.platform_id = r.target_id
join int_accounts f on f.platform_id = r.source_id
join int_scores s on s.platform_id = r.target_id
join int_scores fs on fs.platform_id = r.source_id
left join int_score_seeds k on k.platform_id = r.source_id
where r.position < 10 and s.platform_score > 0
order by t.account_idx, r.position;
