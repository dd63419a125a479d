-- Write the scores of the dates this build scored (int_score_rows: every account, consecutive dates ending on the
-- build date) into the state: into the sparse score history a row where an account's score differs from the day
-- before (from the state's last row before the first of those dates, read from the keyframe before it), every rank
-- of those dates, and a keyframe of the build date when the state's latest is 7 days old. The caller has removed
-- the rows of those dates and later, within the same transaction.
insert into st.score_history
with first_date as (select min(score_date) as first from int_score_rows),
before as (
  select h.platform_id, arg_max(h.platform_score, h.score_date) as platform_score, max(h.score_date) as score_date
  from score_rows_from((select first from first_date) - 1) h, first_date f
  where h.score_date < f.first
  group by h.platform_id
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

-- keyframes: one every 7 days; kept, those of the last 45 days (the 30-day look-back reads one at most 37 days old)
-- and for 410 days the last of each month (the window's first date, at most 12 months and 30 days back, reads the
-- one at the end of the month before it). A reader without a keyframe reads every change.
insert into st.score_keyframes
select score_date, platform_id, platform_score from int_score_rows
where score_date = getvariable('build_date') and platform_score > 0
  and not exists (select 1 from st.score_keyframes where score_date > getvariable('build_date') - 7);

delete from st.score_keyframes
where score_date < getvariable('build_date') - 410
  or (score_date < getvariable('build_date') - 45
      and score_date not in (select max(score_date) from st.score_keyframes group by date_trunc('month', score_date)));
