-- The state's score history keeps ranks for the scored dates from getvariable('ranks_kept_from') on (its last
-- RANK_KEPT_DAYS days, pipeline/state.ts); earlier rows keep their scores and lose their ranks, and a row that then
-- repeats the score of the row before it goes. A rank moves whenever an account above it crosses, so nearly every
-- account's rank changes every night: kept for the whole history, ranks would be nearly all of its rows.
-- getvariable('ranks_anchor') is the first scored date on or after the cutoff. Run within the commit of a day, after
-- its scores and score dates are written.

-- the rows that lose their rank now
create or replace temp table rank_dropped as
select score_date, platform_id from st.score_history
where score_date < getvariable('ranks_kept_from') and rank is not null;

-- an account whose last row before the window is ranked and that has no row on its first scored date gets one there
-- (its score and rank as of that date), so the window still knows its rank
insert into st.score_history
select getvariable('ranks_anchor'), platform_id, platform_score, rank
from (
  select platform_id, platform_score, rank from st.score_history
  where score_date < getvariable('ranks_kept_from') and platform_id in (select platform_id from rank_dropped)
  qualify row_number() over (partition by platform_id order by score_date desc) = 1
)
where getvariable('ranks_anchor') is not null and rank is not null
  and platform_id not in (select platform_id from st.score_history where score_date = getvariable('ranks_anchor'));

update st.score_history set rank = null where score_date < getvariable('ranks_kept_from') and rank is not null;

-- rows that now repeat the score of the row before them (every row before the window is unranked now, and the
-- older ones were checked by the commits before); deleting rows that repeat their predecessor leaves every account's
-- score on every date as it was
delete from st.score_history where rowid in (
  select rowid from (
    select rowid, platform_score, lag(platform_score) over (partition by platform_id order by score_date) as before
    from st.score_history
    where score_date < getvariable('ranks_kept_from') and platform_id in (select platform_id from rank_dropped))
  where before = platform_score);

drop table rank_dropped;
