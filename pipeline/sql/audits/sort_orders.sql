-- Every mart is stored in the order docs/snapshot.md promises (rowid = storage order), and the row-number columns
-- (account_idx, ordinal, rank_alpha, pos_by_*) are the positions they claim to be. smart_followers' pos_by_* are
-- not recomputed here: its model numbers them with these very expressions in its final select, so the check could
-- not fail, and would cost two more sorts of every smart follow. score_dates is strictly ordered (date desc):
-- no date twice. (The history parts are written sorted and their keys audited as they are written:
-- pipeline/history-parts.ts.)
select 'accounts' as mart, rowid as row from (
  select rowid, account_idx, row_number() over (order by platform_id) - 1 as expected from accounts)
where rowid <> expected or account_idx <> expected
union all
select 'smart_followers', rowid from (
  select rowid, row_number() over (order by target_idx, follower_score desc, follower_id) - 1 as expected
  from smart_followers)
where rowid <> expected
union all
select 'categorized_followers_count', rowid from (
  select rowid, ordinal, row_number() over (order by target_idx, ordinal) - 1 as expected,
    row_number() over (partition by target_idx order by ordinal) - 1 as expected_ordinal
  from categorized_followers_count)
where rowid <> expected or ordinal <> expected_ordinal
union all
select 'friendship_followed', rowid from (
  select rowid, row_number() over (order by target_idx, event_date desc, follower_id, action) - 1 as expected
  from friendship_followed)
where rowid <> expected
union all
select 'friendship_following', rowid from (
  select rowid,
    row_number() over (order by source_idx, action, followed_id::varchar, event_date desc) - 1 as expected
  from friendship_following)
where rowid <> expected
union all
select 'smart_follows', rowid from (
  select rowid, rank_alpha, pos_by_score, pos_by_followers,
    row_number() over (order by days, bucket, rank_alpha) - 1 as expected,
    row_number() over (partition by days, bucket order by rank_alpha) as expected_rank,
    row_number() over (partition by days, bucket order by platform_score desc, platform_id) - 1 as by_score,
    row_number() over (partition by days, bucket order by current_followers desc, platform_id) - 1 as by_followers
  from smart_follows)
where rowid <> expected or rank_alpha <> expected_rank or pos_by_score <> by_score or pos_by_followers <> by_followers
union all
select 'score_dates', rowid from (select rowid, date, lag(date) over (order by rowid) as before_date from score_dates)
where before_date <= date
union all
select 'trending', rowid from (
  select rowid, rank, row_number() over (order by days, metric, growth desc, platform_id) - 1 as expected,
    row_number() over (partition by days, metric order by growth desc, platform_id) as expected_rank
  from trending)
where rowid <> expected or rank <> expected_rank
union all
select 'top_researched', rowid from (
  select rowid, rank, row_number() over (order by days, lookups desc, platform_id) - 1 as expected,
    row_number() over (partition by days order by lookups desc, platform_id) as expected_rank
  from top_researched)
where rowid <> expected or rank <> expected_rank;
