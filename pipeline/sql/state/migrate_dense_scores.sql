-- A state written when the score history was kept dense (st.scores: every account with a score > 0 on every scored
-- date) becomes the sparse st.score_history: the rows where an account's score or rank changed.
insert into st.score_history
with accounts as (select distinct platform_id from st.scores),
dense as (
  select d.score_date, a.platform_id, coalesce(s.platform_score, 0) as platform_score, s.rank
  from st.score_dates d
  cross join accounts a
  left join st.scores s on s.score_date = d.score_date and s.platform_id = a.platform_id
),
marked as (
  select *, lag(platform_score) over w as prev_score, lag(rank) over w as prev_rank
  from dense
  window w as (partition by platform_id order by score_date)
)
select score_date, platform_id, platform_score, rank
from marked
where if(prev_score is null, platform_score > 0, prev_score <> platform_score or prev_rank is distinct from rank)
order by score_date, platform_id;
drop table st.scores;
