-- A state whose score history held the ranks too (st.score_history.rank: a row per change of score or rank, ranks
-- kept for its last RANK_KEPT_DAYS days and NULL before) gets each scored date's ranks as st.score_ranks (an
-- account's rank on a date is that of its last row on or before it) and a score history of score changes only.
insert into st.score_ranks
select d.score_date, h.platform_id, h.rank
from st.score_dates d
cross join (select distinct platform_id from st.score_history) a
asof join st.score_history h on h.platform_id = a.platform_id and h.score_date <= d.score_date
where h.platform_score > 0 and h.rank is not null
order by d.score_date, h.platform_id;
create table st.score_changes as
select score_date, platform_id, platform_score from (
  select *, lag(platform_score) over (partition by platform_id order by score_date) as before from st.score_history)
where before is null or before <> platform_score
order by score_date, platform_id;
drop table st.score_history;
alter table st.score_changes rename to score_history;
