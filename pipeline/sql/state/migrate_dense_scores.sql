-- A state written when the score history was kept dense (st.scores: every account with a score > 0 on every scored
-- date) becomes the sparse st.score_history (the rows where an account's score changed) and st.score_ranks (each
-- date's ranks; the next commit keeps the last RANK_KEPT_DAYS days of them).
insert into st.score_history
with accounts as (select distinct platform_id from st.scores),
dense as (
  select d.score_date, a.platform_id, coalesce(s.platform_score, 0) as platform_score
  from st.score_dates d
  cross join accounts a
  left join st.scores s on s.score_date = d.score_date and s.platform_id = a.platform_id
),
marked as (
  select *, lag(platform_score) over (partition by platform_id order by score_date) as prev_score
  from dense
)
select score_date, platform_id, platform_score
from marked
where if(prev_score is null, platform_score > 0, prev_score <> platform_score)
order by score_date, platform_id;
insert into st.score_ranks
select score_date, platform_id, rank from st.scores where platform_score > 0 and rank is not null
order by score_date, platform_id;
drop table st.scores;
