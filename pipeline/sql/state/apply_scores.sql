-- Write the scores of the dates this build scored (int_score_rows: every account, consecutive dates ending on the
-- build date) into the state: into the sparse score history a row where an account's score differs from the day
-- before (from its score the day before the first of those dates), every rank of those dates, and a checkpoint
-- (every account's score) on the first of those dates in each month the state has none of. The caller has removed
-- the rows of those dates and later, within the same transaction.
insert into st.score_history
with first_date as (select min(score_date) as first from int_score_rows),
before as (
  select s.platform_id, s.platform_score, f.first - 1 as score_date
  from stg_scores_on((select first from first_date) - 1) s, first_date f
),
-- an account scored before and missing from a scored date (no longer known) has score 0 that day
known as (
  select platform_id from before where platform_score > 0 union select platform_id from int_score_rows
),
dense as (
  select d.score_date, k.platform_id, coalesce(s.platform_score, 0) as platform_score
  from (select distinct score_date from int_score_rows) d
  cross join known k
  left join int_score_rows s on s.score_date = d.score_date and s.platform_id = k.platform_id
),
marked as (
  select *, lag(platform_score) over (partition by platform_id order by score_date) as prev_score
  from (select * from dense union all select score_date, platform_id, platform_score from before)
)
select score_date, platform_id, platform_score
from marked, first_date f
where score_date >= f.first and if(prev_score is null, platform_score > 0, prev_score <> platform_score)
order by score_date, platform_id;

insert into st.score_ranks
select score_date, platform_id, rank from int_score_rows
where platform_score > 0 and rank is not null
order by score_date, platform_id;

insert into st.score_checkpoints
with firsts as (select min(score_date) as day from int_score_rows group by date_trunc('month', score_date))
select s.score_date, s.platform_id, s.platform_score
from int_score_rows s semi join firsts f on s.score_date = f.day
where s.platform_score > 0
  and not exists (select 1 from st.score_checkpoints c where date_trunc('month', c.score_date) = date_trunc('month', s.score_date))
order by s.score_date, s.platform_id;
