-- A state written before st.follow_sources: every source scanned, dated by its first stored scan.
insert into st.follow_sources
select min(scan_date), source_id from st.follow_scans group by source_id order by 1, 2;
