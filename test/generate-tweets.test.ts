/**
 * The tweets the generator delivers (docs/raw-data.md): each on the UTC day it was written, many again on the next
 * one or two days with their counters grown (a crawler sees them again), with short links, partial url maps,
 * unknown authors and self-mentions.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { generateRaw } from '../scripts/generate/index.ts'

const END_DATE = '2026-11-22'

const Tweets = suite<{ dir: string; conn: DuckDBConnection; close(): void }>('generated tweets')

Tweets.before(async (context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'generate-tweets-'))
  await generateRaw({ scale: 'tiny', seed: 42, outDir: context.dir, endDate: END_DATE })
  const instance = await DuckDBInstance.create(':memory:')
  context.conn = await instance.connect()
  for (const name of ['tweets', 'accounts', 'friends']) {
    const files = name === 'tweets' ? path.join(context.dir, '*', 'tweets.parquet') : path.join(context.dir, END_DATE, `${name}.parquet`)
    await context.conn.run(`create view ${name} as select * from read_parquet('${files}')`)
  }
  context.close = () => {
    context.conn.closeSync()
    instance.closeSync()
    fs.rmSync(context.dir, { recursive: true, force: true })
  }
})

Tweets.after((context) => context.close())

async function rows(conn: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  return (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[]
}

async function count(conn: DuckDBConnection, sql: string): Promise<number> {
  return Number((await conn.runAndReadAll(sql)).getRowsJson()[0]?.[0])
}

Tweets('tweets :: each is delivered on the UTC day it was written; some again one or two days later, counters grown', async ({ conn, dir }) => {
  const stats = (await rows(conn, `
    with delivery as (
      select tweet_id, favorites, views, cast(cast(created_at as timestamptz) as date) as written,
        regexp_extract(filename, '(\\d{4}-\\d{2}-\\d{2})/', 1)::date as folder
      from read_parquet('${path.join(dir, '*', 'tweets.parquet')}', filename = true)
    ),
    ordered as (
      select *, folder - written as age, lag(favorites) over w as favorites_before, lag(views) over w as views_before,
        row_number() over w as nth
      from delivery window w as (partition by tweet_id order by folder)
    )
    select count(*) filter (where nth = 1) as tweets,
      count(*) filter (where nth = 1 and age <> 0) as first_late,
      count(*) filter (where age = 1) as next_day, count(*) filter (where age = 2) as two_days, max(age) as max_age,
      count(*) filter (where favorites < favorites_before or views < views_before) as shrunk,
      count(*) filter (where views > views_before) as grown
    from ordered
    where written >= DATE '${END_DATE}' - 57`))[0]
  const share = (n: unknown) => Number(n) / Number(stats.tweets)
  assert.is(Number(stats.first_late), 0, 'first delivered on the day written')
  assert.ok(share(stats.next_day) > 0.35 && share(stats.next_day) < 0.45, `${stats.next_day} of ${stats.tweets} again the next day`)
  assert.ok(share(stats.two_days) > 0.12 && share(stats.two_days) < 0.18, `${stats.two_days} of ${stats.tweets} two days later`)
  assert.is(Number(stats.max_age), 2)
  assert.is(Number(stats.shrunk), 0, 'counters never shrink')
  assert.ok(Number(stats.grown) > 0.9 * (Number(stats.next_day) + Number(stats.two_days)), 'views grow')
})

Tweets('tweets :: short links, partial url maps, unknown authors, self-mentions and assorted offsets', async ({ conn }) => {
  const stats = (await rows(conn, `
    select
      count(*) filter (where regexp_matches(text, 'https://t\\.co/[A-Za-z0-9]{10}')) as with_links,
      count(*) filter (where len(regexp_extract_all(text, 'https://t\\.co/[A-Za-z0-9]{10}')) > len(urls)) as uncovered,
      count(*) filter (where author_id not in (select account_id from accounts) and author_id not in (select account_id from friends)) as unknown_authors,
      count(*) filter (where list_contains(mentioned_ids, author_id)) as self_mentions,
      count(distinct right(created_at, 6)) as offsets,
      count(*) filter (where len(mentioned_ids) = 0) as no_mentions,
      min(created_at::TIMESTAMPTZ)::DATE::VARCHAR as first_day,
      max(created_at::TIMESTAMPTZ)::DATE::VARCHAR as last_day
    from tweets`))[0]
  assert.ok(Number(stats.with_links) > 1000)
  assert.ok(Number(stats.uncovered) > 0, 'not every short link is in urls')
  assert.ok(Number(stats.unknown_authors) > 0)
  assert.ok(Number(stats.self_mentions) > 0)
  assert.ok(Number(stats.offsets) >= 5)
  assert.is(Number(stats.no_mentions), 0)
  assert.is(stats.last_day, END_DATE)
  assert.is(stats.first_day, '2026-09-24', '60 UTC days of tweets')
  const covered = await count(conn, `
    select count(*) from (select unnest(urls) as u, text from tweets) where not contains(text, u.short_url)`)
  assert.is(covered, 0, 'every url entry is a link of its text')
})

Tweets.run()
