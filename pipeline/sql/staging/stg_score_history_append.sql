-- Appends one history file (variables history_file, history_date) to stg_score_history.
insert into stg_score_history
select getvariable('history_date'), platform_id, platform_score, rank
from read_parquet(getvariable('history_file'));
insert into stg_score_history_dates values (getvariable('history_date'));
