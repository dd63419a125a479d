-- score_ranks/period=YYYY-MM-DD/data.parquet — grain: one row per ranked account (tracked, score > 0) per scored date
-- within the RANK_HISTORY_DAYS days ending on the build date, a part per date (int_score_ranks).
-- columns: platform_id, date, rank (+ day, which picks the part). sort within a part: platform_id
create or replace view score_ranks as
select platform_id, score_date as date, rank, score_date as day from int_score_ranks;
