-- Ranked lists respect the spec's caps: ≤ 1000 rows per (days, bucket), ≤ 5 top followers per item.
select days, bucket, count(*) as rows from smart_follows group by days, bucket having count(*) > 1000
union all
select days, bucket, max(len(top_alpha_followers)) from smart_follows group by days, bucket
having max(len(top_alpha_followers)) > 5
union all
select days, 'top_researched', count(*) from top_researched group by days having count(*) > 1000;
