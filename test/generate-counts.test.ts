/**
 * The follower counts the generator delivers (docs/raw-data.md): daily counts of monitored accounts only, with the
 * crawler's missing days, and no count, daily or in a profile, below the followers the scans show.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { generateRaw } from '../scripts/generate/index.ts'

const END_DATE = '2026-11-22'

const Counts = suite<{ conn: DuckDBConnection; close(): void }>('generated follower counts')

Counts.before(async (context) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'generate-counts-'))
  await generateRaw({ scale: 'tiny', seed: 42, outDir: dir, endDate: END_DATE })
  const instance = await DuckDBInstance.create(':memory:')
  context.conn = await instance.connect()
  for (const name of ['follow_scans', 'follower_counts', 'accounts', 'friends']) {
    const daily = name === 'follow_scans' || name === 'follower_counts'
    const files = daily ? path.join(dir, '*', `${name}.parquet`) : path.join(dir, END_DATE, `${name}.parquet`)
    await context.conn.run(`create view ${name} as select * from read_parquet('${files}')`)
  }
  context.close = () => {
    context.conn.closeSync()
    instance.closeSync()
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

Counts.after((context) => context.close())

async function count(conn: DuckDBConnection, sql: string): Promise<number> {
  return Number((await conn.runAndReadAll(sql)).getRowsJson()[0]?.[0])
}

async function rows(conn: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  return (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[]
}

Counts('follower counts :: monitored accounts only, with missing days and trends', async ({ conn }) => {
  assert.is(await count(conn, `select count(*) from follower_counts where account_id not in (select account_id from accounts where is_monitored)`), 0)
  const span = (await rows(conn, `select min(scan_date)::VARCHAR as first, max(scan_date)::VARCHAR as last, count(distinct scan_date) as days from follower_counts`))[0]
  assert.is(span.last, END_DATE)
  assert.ok(Number(span.days) < 60 && Number(span.days) > 50, 'whole-crawler outage days are missing')
  const gaps = await count(conn, `
    select count(*) from (select account_id from follower_counts group by all having count(*) < 57)`)
  assert.ok(gaps > 0, 'accounts miss days')
})

Counts('follower counts :: no count is below the followers the scans show that day or before', async ({ conn }) => {
  // the accounts the monitored set follows on each day, as the latest scan of each follower on or before it shows
  await conn.run(`
    create temp table followed_by_day as
    with day as (select distinct scan_date as day from follow_scans),
    latest as (
      select d.day, s.account_id, arg_max(s.following_ids, s.scan_date) as following_ids
      from day d join follow_scans s on s.scan_date <= d.day group by all
    )
    select day, followed_id, count(*) as seen from (select day, unnest(following_ids) as followed_id from latest) group by all`)
  assert.ok(await count(conn, `select count(*) from followed_by_day where seen >= 20`) > 0, 'the check meets well-followed accounts')
  const daily = await count(conn, `
    select count(*) from follower_counts c join followed_by_day f on f.followed_id = c.account_id and f.day = c.scan_date
    where c.followers_count < f.seen`)
  assert.is(daily, 0, 'a daily count below the followers scanned')
  for (const table of ['accounts', 'friends']) {
    const profiles = await count(conn, `
      select count(*) from ${table} p join followed_by_day f on f.followed_id = p.account_id and f.day = '${END_DATE}'
      where p.followers_count < f.seen`)
    assert.is(profiles, 0, `a ${table} profile count below the followers scanned`)
  }
})

Counts.run()
