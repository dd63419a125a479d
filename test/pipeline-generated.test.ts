/**
 * The follow facts on generated data (scripts/generate, tiny scale), checked against a naive re-derivation straight
 * from the raw scans: every pair of consecutive scans of an account compared list against list.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import path from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { buildSnapshot } from '../pipeline/build.ts'
import { addDays } from '../pipeline/plan.ts'
import { sqlString } from '../pipeline/duckdb.ts'
import { generateRaw } from '../scripts/generate/index.ts'
import { BUILD_DATE, flattenRaw, tempDir } from './_fixtures.ts'

const nightly = tempDir('generated-facts-snapshots')
const built = (async () => {
  const daily = tempDir('generated-facts-raw')
  await generateRaw({ scale: 'tiny', seed: 7, outDir: daily, endDate: BUILD_DATE })
  const raw = await flattenRaw(daily)
  // the nightly way: the state of the day before plus the build date's folder; the backfill scores the 7-day
  // look-back, which the 7-day window's explanation needs
  await buildSnapshot({ rawDir: daily, snapshotsDir: nightly, date: addDays(BUILD_DATE, -1), backfillDays: 6 })
  const { dir } = await buildSnapshot({ rawDir: daily, snapshotsDir: nightly, date: BUILD_DATE })
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  const file = (name: string) => sqlString(path.join(dir, `${name}.parquet`))
  await conn.run(`
    create view scans as
      select account_id as source_id, scan_date, scanned_at, list_distinct(following_ids) as ids,
        lag(list_distinct(following_ids)) over (partition by account_id order by scan_date) as previous_ids
      from read_parquet(${sqlString(path.join(raw, 'follow_scans.parquet'))}) where scan_date <= DATE '${BUILD_DATE}';
    create view accounts as select * from read_parquet(${file('accounts')});
    create view naive_events as
      select source_id, unnest(list_filter(ids, lambda x: not list_contains(previous_ids, x))) as target_id, 'Followed' as action, scan_date
      from scans where previous_ids is not null
      union all
      select source_id, unnest(list_filter(previous_ids, lambda x: not list_contains(ids, x))), 'Unfollowed', scan_date
      from scans where previous_ids is not null;`)
  const query = async (sql: string) => (await conn.runAndReadAll(sql)).getRowsJson()
  return { query, file }
})()

const Facts = suite('follow facts on generated data')

Facts('friendship_followed :: equals the naive diff of consecutive scans for smart followers', async () => {
  const { query, file } = await built
  const [[missing, extra, total]] = await query(`
    with expected as (
      select e.source_id, e.target_id, e.action, e.scan_date from naive_events e
      join accounts f on f.platform_id = e.source_id and f.is_smart
      join accounts t on t.platform_id = e.target_id and e.target_id <> e.source_id
    ),
    actual as (select follower_id, target_id, action, event_date from read_parquet(${file('friendship_followed')}))
    select (select count(*) from (from expected except all from actual)),
           (select count(*) from (from actual except all from expected)),
           (select count(*) from actual)`)
  assert.equal([missing, extra], ['0', '0'])
  assert.ok(Number(total) > 50, `only ${total} events`)
})

Facts('score_changes :: the 20 largest moves of each window; score_explanations counts every change (arrivals, departures, trust started or stopped), none for a window not scored', async () => {
  const { query, file } = await built
  const [[mismatched, windows, unscored]] = await query(`
    with listed as (
      select account_idx, days, count(*) as n, max(position) as last from read_parquet(${file('score_changes')}) group by all
    ),
    counted as (
      select account_idx, 7 as days, arrived_7d + left_7d + trusted_7d + untrusted_7d as total
      from read_parquet(${file('score_explanations')})
      union all
      select account_idx, 30, arrived_30d + left_30d + trusted_30d + untrusted_30d from read_parquet(${file('score_explanations')})
    )
    -- a window whose look-back day was never scored (total NULL: the 30-day one here) lists nobody
    select count(*) filter (where coalesce(l.n, 0) <> if(c.total is null, 0, least(c.total, 20)) or l.last <> l.n - 1),
      count(*) filter (where c.total > 0),
      -- the 30-day look-back precedes the backfill: that window is unknown for every account
      count(*) filter (where c.days = 30 and c.total is not null)
    from counted c left join listed l using (account_idx, days)`)
  assert.is(mismatched, '0')
  assert.ok(Number(windows) > 0, 'no window with changes')
  assert.is(unscored, '0')
})

Facts('smart_followers :: subscribed_at is the first scan of the unbroken run that ends at the latest scan', async () => {
  const { query, file } = await built
  const [[mismatches, total]] = await query(`
    with latest as (select source_id, max(scan_date) as scan_date from scans group by source_id),
    active as (
      select s.source_id, unnest(s.ids) as target_id from scans s join latest using (source_id, scan_date)
    ),
    last_absent as (
      select a.source_id, a.target_id, max(s.scan_date) as absent_date
      from active a join scans s on s.source_id = a.source_id and not list_contains(s.ids, a.target_id)
      group by all
    ),
    expected as (
      select a.source_id, a.target_id, min(s.scanned_at) as subscribed_at
      from active a
      left join last_absent l using (source_id, target_id)
      join scans s on s.source_id = a.source_id and s.scan_date > coalesce(l.absent_date, DATE '1970-01-01')
      join accounts f on f.platform_id = a.source_id and f.is_smart
      where a.source_id <> a.target_id
      group by all
    ),
    actual as (select follower_id, target_id, subscribed_at from read_parquet(${file('smart_followers')}))
    select (select count(*) from (from expected except all from actual)) + (select count(*) from (from actual except all from expected)),
           (select count(*) from actual)`)
  assert.is(mismatches, '0')
  assert.ok(Number(total) > 1000, `only ${total} smart follows`)
})

Facts.run()
