-- Appends the lookup files listed in the variable lookup_files to stg_lookups (unreadable lines are skipped: a
-- server stopped mid-write leaves a partial last line).
insert into stg_lookups
select "at", operation, try_cast(platform_id as ubigint)
from read_json(
  getvariable('lookup_files'), format = 'newline_delimited', ignore_errors = true,
  columns = {'at': 'TIMESTAMPTZ', 'operation': 'VARCHAR', 'platform_id': 'VARCHAR'});
