-- Write the scores of the dates this build scored (int_score_rows: every account, consecutive dates ending on the
-- build date) into the sparse score history: a row where an account's score or rank differs from the day before
-- (from the state's last row before the first of those dates). The caller has removed the rows of those dates and
-- later, within the same transaction.
insert into st.score_history
with first_date as (select min(score_date) as first from int_score_rows),
before as (
  select h.platform_id, h.platform_score, h.rank, h.score_date
  from st.score_history h, first_date f
  where h.score_date < f.first
  qualify row_number() over (partition by h.platform_id order by h.score_date desc) = 1
),
scored as (
  select score_date, platform_id, platform_score, if(platform_score > 0, rank, null) as rank from int_score_rows
),
-- an account scored before and missing from a scored date (no longer known) has score 0 that day
known as (
  select platform_id from before where platform_score > 0 union select platform_id from scored
),
dense as (
  select d.score_date, k.platform_id, coalesce(s.platform_score, 0) as platform_score, s.rank
  from (select distinct score_date from scored) d
  cross join known k
  left join scored s on s.score_date = d.score_date and s.platform_id = k.platform_id
),
marked as (
  select *,
    lag(platform_score) over w as prev_score,
    lag(rank) over w as prev_rank
  from (select * from dense union all select score_date, platform_id, platform_score, rank from before)
  window w as (partition by platform_id order by score_date)
)
select score_date, platform_id, platform_score, rank
from marked, first_date f
where score_date >= f.first
  and if(prev_score is null, platform_score > 0, prev_score <> platform_score or prev_rank is distinct from rank)
order by score_date, platform_id;
