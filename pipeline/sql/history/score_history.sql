-- score_history/period=<YYYY-MM | YYYY-MM-DD>/data.parquet — grain: one row per (account, scored date on which its
-- score changed) from the window's first scored date (`first`: the first on or after the first day of the month 12
-- months before the build date's month, so at least the 365 days score_dates lists, and the oldest part changes once a
-- month) to the build date. `first` holds every account's score as of that date. An account's score on a scored date
-- is its last row on or before that date (none: no score); a row with platform_score 0 ends a score.
-- columns: platform_id, date, platform_score (+ day, which picks the part). sort within a part: platform_id, date desc
-- Sources: stg_score_history (the state's rows, each already a change from the row before it, then a backfill's
-- rows, one per account and date) and this build's scores. Only the rows from the first date this build scored
-- (`fresh`: this build's date, or the first backfilled one) are compared with the row before them, so a night reads
-- the state's changes once, without sorting them per account. The rows of the parts a build carries from the snapshot
-- before (those before `history_since`, pipeline/history-parts.ts, but the month of the table's first row, whose
-- part is computed every night) are left out: a night reads the changes the state holds, and copies only those of the
-- parts it writes.
create or replace table score_history as
with bounds as (
  select
    (select min(score_date) from (
       select score_date from stg_score_history_dates union select getvariable('build_date'))
     where score_date >= (date_trunc('month', getvariable('build_date')) - interval 12 month)::date) as first,
    (select coalesce(min(score_date), getvariable('build_date')) from int_score_rows) as fresh,
    getvariable('history_since') as since
),
-- the day after the month of the table's first row (on the first date, or the first change after it)
head as (
  select (date_trunc('month', coalesce(min(h.score_date), b.first)) + interval 1 month)::date as head_end
  from bounds b left join stg_score_history h on h.score_date > b.first and h.score_date < b.fresh
  group by b.first
),
stored as (
  select platform_id, score_date, platform_score from stg_score_history
  union all
  select platform_id, getvariable('build_date'), platform_score from int_scores
),
-- per account: its score as of the first scored date, and that of the row before its first fresh row after it (the
-- last one before fresh, or on or before first), each read from the keyframe before it (score_rows_from)
at_first as (
  select platform_id, arg_max(platform_score, score_date) as at_first
  from (select * from score_rows_from((select first from bounds))
        union all select getvariable('build_date'), platform_id, platform_score from int_scores), bounds
  where score_date <= first
  group by platform_id
),
before_fresh as (
  select platform_id, arg_max(platform_score, score_date) as before_fresh
  from score_rows_from((select greatest(fresh - 1, first) from bounds)), bounds
  where score_date < fresh or score_date <= first
  group by platform_id
),
anchors as (
  select platform_id, f.at_first, b.before_fresh
  from at_first f full join before_fresh b using (platform_id)
),
-- the fresh rows after the first date, each marked with the score of the row before it
fresh as (
  select platform_id, score_date, platform_score,
    if(row_number() over w = 1, null, lag(platform_score) over w) as before_score
  from stored, bounds
  where score_date >= fresh and score_date > first
  window w as (partition by platform_id order by score_date)
),
changes as (
  select platform_id, first as score_date, at_first as platform_score
  from anchors, bounds
  where at_first > 0
  union all
  select platform_id, score_date, platform_score
  from stored, bounds, head
  where score_date > first and score_date < fresh and (since is null or score_date >= since or score_date < head_end)
  union all
  select f.platform_id, f.score_date, f.platform_score
  from fresh f
  left join anchors a on a.platform_id = f.platform_id
  where coalesce(f.before_score, a.before_fresh, 0) <> f.platform_score
)
select platform_id, score_date as date, platform_score, score_date as day
from changes;
