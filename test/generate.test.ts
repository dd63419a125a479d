/**
 * The raw-data generator (`npm run generate`): the tiny scale writes one folder per day honouring docs/raw-data.md
 * (files, columns, DuckDB types, keys, referential rules, exact ids beyond 2^53) with a crawler's cadence, is
 * deterministic per seed and end date, and the structure it reports in `_truth.json` is really in the data.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { RAW_FILES } from '../pipeline/raw-contract.ts'
import { DAILY_FILES } from '../pipeline/raw-days.ts'
import { generateRaw } from '../scripts/generate/index.ts'

const END_DATE = '2026-11-22'
const TWO_POW_53 = 2n ** 53n

interface Truth {
  seed: number
  scale: string
  end_date: string
  top_accounts: string[]
  bot_farm_targets: string[]
  bot_farm_members: string[]
  ring_members: string[]
  gems: string[]
  lonely_small: string[]
  friend_overlap_zero: string[]
  bucket_followers: Record<string, string[]>
  renamed: { id: string; old_username: string; new_username: string }[]
  suspended: string[]
  inactive: string[]
}

interface Context {
  root: string
  dirs: { main: string; again: string; otherSeed: string }
  counts: Record<string, number>
  truth: Truth
  conn: DuckDBConnection
  close(): void
}

const Generate = suite<Context>('generate')

/** A raw file of a generated folder as a DuckDB source: a daily file over every day folder, a reference table of the end date. */
function source(dir: string, file: string): string {
  return DAILY_FILES.includes(file)
    ? `read_parquet('${path.join(dir, '*', file)}')`
    : `read_parquet('${path.join(dir, END_DATE, file)}')`
}

Generate.before(async (context) => {
  context.root = fs.mkdtempSync(path.join(os.tmpdir(), 'generate-test-'))
  const [main, again, otherSeed] = ['main', 'again', 'other-seed'].map((name) => path.join(context.root, name))
  context.dirs = { main, again, otherSeed }
  context.counts = (await generateRaw({ scale: 'tiny', seed: 42, outDir: main, endDate: END_DATE })).counts
  await generateRaw({ scale: 'tiny', seed: 42, outDir: again, endDate: END_DATE })
  await generateRaw({ scale: 'tiny', seed: 7, outDir: otherSeed, endDate: END_DATE })
  context.truth = JSON.parse(fs.readFileSync(path.join(context.dirs.main, '_truth.json'), 'utf8'))
  const instance = await DuckDBInstance.create(':memory:')
  context.conn = await instance.connect()
  for (const { file } of RAW_FILES) await context.conn.run(`create view ${file.replace('.parquet', '')} as select * from ${source(main, file)}`)
  // the follow events the pipeline will derive: consecutive scans of one account compared
  await context.conn.run(`
    create table follow_event as
    with scan as (
      select account_id, scan_date, following_ids,
        lag(following_ids) over (partition by account_id order by scan_date) as previous_ids
      from follow_scans
    )
    select account_id, scan_date, 'follow' as action, unnest(list_filter(following_ids, x -> not list_contains(previous_ids, x))) as other_id
    from scan where previous_ids is not null
    union all
    select account_id, scan_date, 'unfollow', unnest(list_filter(previous_ids, x -> not list_contains(following_ids, x)))
    from scan where previous_ids is not null`)
  await context.conn.run(`
    create table last_edge as
    select account_id as follower_id, unnest(following_ids) as followed_id
    from follow_scans qualify scan_date = max(scan_date) over (partition by account_id)`)
  context.close = () => (context.conn.closeSync(), instance.closeSync())
})

Generate.after((context) => {
  context.close()
  fs.rmSync(context.root, { recursive: true, force: true })
})

async function rows(conn: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  return (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[]
}

async function value(conn: DuckDBConnection, sql: string): Promise<unknown> {
  return (await conn.runAndReadAll(sql)).getRowsJson()[0]?.[0]
}

async function count(conn: DuckDBConnection, sql: string): Promise<number> {
  return Number(await value(conn, sql))
}

function idList(ids: string[]): string {
  assert.ok(ids.length > 0, 'a truth label must not be empty')
  assert.ok(ids.every((id) => /^\d+$/.test(id)), 'truth ids are decimal strings')
  return `(${ids.map((id) => `${id}::UBIGINT`).join(', ')})`
}

/** A checksum of a file's rows in key order: equal rows give equal checksums whatever the file bytes. */
async function rowChecksum(conn: DuckDBConnection, dir: string, file: string, key: string[]): Promise<string> {
  return String(
    await value(
      conn,
      `select md5(string_agg(t::VARCHAR, chr(10) order by ${key.join(', ')}, t::VARCHAR)) from ${source(dir, file)} t`,
    ),
  )
}

Generate('contract :: 60 day folders ending on the end date, each with exactly the documented files, and _truth.json', ({ dirs, counts }) => {
  const days = fs.readdirSync(dirs.main).filter((d) => d !== '_truth.json').sort()
  assert.is(days.length, 60)
  assert.is(days[0], '2026-09-24')
  assert.is(days.at(-1), END_DATE)
  assert.ok(fs.existsSync(path.join(dirs.main, '_truth.json')))
  for (const day of days) assert.equal(fs.readdirSync(path.join(dirs.main, day)).sort(), RAW_FILES.map((f) => f.file).sort(), day)
  for (const { file } of RAW_FILES) assert.ok(counts[file.replace('.parquet', '')] > 0, `${file} has rows`)
  assert.not.ok(fs.readdirSync(path.dirname(dirs.main)).some((name) => name.includes('.tmp-')), 'no temp folder is left')
})

Generate('contract :: every file has the documented column names and DuckDB types, zstd-compressed', async ({ conn, dirs }) => {
  for (const { file, columns } of RAW_FILES) {
    const described = await rows(conn, `describe select * from ${source(dirs.main, file)}`)
    assert.equal(
      Object.fromEntries(described.map((c) => [c.column_name, c.column_type])),
      columns,
      `${file} columns and types`,
    )
    const codecs = await rows(
      conn,
      `select distinct compression from parquet_metadata('${path.join(dirs.main, '*', file)}')`,
    )
    assert.equal(codecs.map((c) => c.compression), ['ZSTD'], `${file} is zstd`)
  }
})

Generate('contract :: keys are unique in each file and never null', async ({ conn, dirs }) => {
  for (const { file, key } of RAW_FILES) {
    const view = file.replace('.parquet', '')
    const nulls = await count(conn, `select count(*) from ${view} where ${key.map((k) => `${k} is null`).join(' or ')}`)
    // a daily file's key is unique within its day folder (a tweet may be delivered again on a later day)
    const [files, folder] = DAILY_FILES.includes(file) ? [`read_parquet('${path.join(dirs.main, '*', file)}', filename = true)`, ', filename'] : [view, '']
    const duplicates = await count(conn, `select count(*) from (select ${key.join(', ')}${folder} from ${files} group by all having count(*) > 1)`)
    assert.is(nulls, 0, `${file} null keys`)
    assert.is(duplicates, 0, `${file} duplicate keys`)
  }
})

Generate('contract :: categories are the spec eight; tags have tag categories', async ({ conn }) => {
  const categories = await rows(conn, `select category_id, name from categories order by category_id`)
  assert.equal(
    categories.map((c) => `${c.category_id} ${c.name}`),
    ['1 Venture Capitals', '2 Founders', '3 Projects', '4 Exchanges', '5 Auditors', '6 Media', '7 Influencers', '8 Angels'],
  )
  assert.ok((await count(conn, `select count(*) from tags`)) >= 30)
  assert.is(await count(conn, `select count(*) from tags where tag_category_id not in (select tag_category_id from tag_categories)`), 0)
  assert.is(await count(conn, `select count(*) from account_tags where tag_id not in (select tag_id from tags)`), 0)
  assert.is(await count(conn, `select count(*) from account_categories where account_id not in (select account_id from accounts)`), 0)
  const perAccount = await rows(conn, `
    select n, count(*) as accounts from (
      select a.account_id, count(c.category_id) as n from accounts a left join account_categories c using (account_id) group by all)
    group by n order by n`)
  const share = (n: number) => Number(perAccount.find((r) => Number(r.n) === n)?.accounts ?? 0) / 2000
  assert.ok(share(0) > 0.3 && share(1) + share(2) > 0.2 && share(3) < 0.05, 'most accounts carry 0-2 categories')
})

Generate('graph :: every follow edge starts at a monitored account and every followed id is known', async ({ conn }) => {
  assert.is(await count(conn, `select count(*) from follow_scans where account_id not in (select account_id from accounts where is_monitored)`), 0)
  assert.is(
    await count(conn, `
      select count(*) from (select unnest(following_ids) as id from follow_scans)
      where id not in (select account_id from accounts) and id not in (select account_id from friends)`),
    0,
  )
  assert.is(await count(conn, `select count(*) from follow_scans where len(following_ids) <> len(list_distinct(following_ids))`), 0)
  assert.is(await count(conn, `select count(*) from follow_scans where scanned_at::DATE <> scan_date or epoch_us(scanned_at) % 1000 <> 0`), 0)
  const friendOnlyFollowed = await count(conn, `
    select count(distinct followed_id) from last_edge where followed_id not in (select account_id from accounts)`)
  assert.ok(friendOnlyFollowed > 0, 'some followed ids are known only through friends.parquet')
})

Generate('graph :: a monitored account is first scanned on the first day, or on the day it joined the monitored set', async ({ conn }) => {
  const first = String(await value(conn, `select min(scan_date)::VARCHAR from follow_scans`))
  const monitored = await count(conn, `select count(*) from accounts where is_monitored`)
  const onFirstDay = await count(conn, `select count(*) from follow_scans where scan_date = '${first}'`)
  assert.ok(onFirstDay >= 0.8 * monitored && onFirstDay < monitored, `${onFirstDay} of ${monitored} scanned on the first day`)
  assert.is(await count(conn, `select count(distinct account_id) from follow_scans`), monitored)
  // the crawler counts an account's followers from the day it scans its follows (a count can miss a day, an outage three)
  const firsts = (await rows(conn, `
    with scans as (select account_id, min(scan_date) as scanned from follow_scans group by 1),
         counted as (select account_id, min(scan_date) as counted from follower_counts group by 1)
    select count(*) filter (where scanned > '${first}') as late,
      count(*) filter (where counted < scanned) as counted_before,
      max(counted - scanned) as most_days_between
    from scans join counted using (account_id)`))[0]
  assert.ok(Number(firsts.late) > 0, 'some accounts join the monitored set later')
  assert.is(Number(firsts.counted_before), 0, 'no follower count before the first scan')
  assert.ok(Number(firsts.most_days_between) <= 4, `first count ${firsts.most_days_between} days after the first scan`)
  assert.ok((await count(conn, `select count(*) from follow_scans where scan_date > '${first}'`)) > monitored / 4)
  assert.is(String(await value(conn, `select max(scan_date)::VARCHAR from follow_scans`)), END_DATE)
  assert.ok((await count(conn, `select count(*) from follow_scans where len(following_ids) = 0`)) > 0, 'an empty scan exists')
})

Generate('cadence :: most monitored accounts are scanned every day, the rest every few days; each day folder holds its day', async ({ conn, dirs }) => {
  const stats = (await rows(conn, `
    with gaps as (
      select account_id, scan_date - lag(scan_date) over (partition by account_id order by scan_date) as gap from follow_scans)
    select count(distinct account_id) filter (where true) as scanned,
      -- scanned every day from its first scan (its baseline: the first day, or the day it joined) to the end date
      (select count(*) from (select account_id from follow_scans group by all
                             having count(*) = date '${END_DATE}' - min(scan_date) + 1)) as daily,
      max(gap) as max_gap
    from gaps`))[0]
  const monitored = await count(conn, `select count(*) from accounts where is_monitored`)
  assert.is(Number(stats.scanned), monitored)
  assert.ok(Number(stats.daily) > 0.6 * monitored && Number(stats.daily) < 0.9 * monitored, `daily ${stats.daily} of ${monitored}`)
  assert.ok(Number(stats.max_gap) <= 5, `longest gap ${stats.max_gap} days`)
  for (const [file, column] of [['follow_scans.parquet', 'scan_date'], ['follower_counts.parquet', 'scan_date']]) {
    const misplaced = await count(conn, `select count(*) from read_parquet('${path.join(dirs.main, '*', file)}', filename = true)
      where ${column}::varchar <> regexp_extract(filename, '(\\d{4}-\\d{2}-\\d{2})/', 1)`)
    assert.is(misplaced, 0, `${file} rows in their day's folder`)
  }
})

Generate('days :: --days N writes N day folders ending on the end date', async ({ root }) => {
  const out = path.join(root, 'three-days')
  await generateRaw({ scale: 'tiny', seed: 42, outDir: out, endDate: END_DATE, days: 3 })
  assert.equal(fs.readdirSync(out).sort(), ['2026-11-20', '2026-11-21', '2026-11-22', '_truth.json'])
  fs.rmSync(out, { recursive: true, force: true })
})

Generate('cli :: --help prints the usage; a flag mistake exits 2 with its message and the usage, writing nothing', ({ root }) => {
  const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/generate.ts', ...args], { encoding: 'utf8' })
  const help = run('--help')
  assert.is(help.status, 0)
  assert.match(help.stdout, /usage: npm run generate/)
  const out = path.join(root, 'refused')
  for (const [args, message] of [
    [['--bogus'], /Unknown option '--bogus'/],
    [['--end-date', '2026-02-30'], /--end-date must be a real date YYYY-MM-DD, got 2026-02-30/],
    [['--days', '0'], /--days must be an integer from 1 to 365/],
    [['--scale', 'huge'], /--scale must be one of tiny, demo, large/],
  ] as const) {
    const cli = run('--scale', 'tiny', '--out', out, ...args)
    assert.is(cli.status, 2, args.join(' '))
    assert.match(cli.stderr, message)
    assert.match(cli.stderr, /usage: npm run generate/)
    assert.not.match(cli.stderr, /\n\s+at /)
  }
  const untuned = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/generate.ts', '--scale', 'tiny', '--out', out], { encoding: 'utf8', env: { ...process.env, PIPELINE_MEMORY_LIMIT: 'bogus' } })
  assert.equal([untuned.status, untuned.stderr.match(/PIPELINE_MEMORY_LIMIT=bogus/) !== null], [1, true])
  assert.equal(fs.readdirSync(root).filter((name) => name.startsWith('refused')), [], 'no folder, not even a temporary one')
})

Generate('graph :: in-degree is heavy-tailed', async ({ conn }) => {
  const stats = (await rows(conn, `
    select max(n) as max_in, median(n) as median_in from (select followed_id, count(*) as n from last_edge group by all)`))[0]
  assert.ok(Number(stats.max_in) > 20 * Number(stats.median_in), `max ${stats.max_in} vs median ${stats.median_in}`)
})

Generate('events :: follows and unfollows in the last 1, 7 and 30 days, also by VCs, Influencers and Angels', async ({ conn }) => {
  for (const days of [1, 7, 30]) {
    for (const category of [null, 1, 7, 8]) {
      const byCategory = category === null ? '' : `and account_id in (select account_id from account_categories where category_id = ${category})`
      const smart = `account_id in (select account_id from accounts where is_monitored and is_active and not is_suspended)`
      for (const action of ['follow', 'unfollow']) {
        const n = await count(conn, `
          select count(*) from follow_event where action = '${action}' and ${smart} ${byCategory}
            and scan_date > DATE '${END_DATE}' - ${days}`)
        assert.ok(n > 0, `${action} events in the last ${days} days, category ${category ?? 'any'}`)
      }
    }
  }
  const refollows = await count(conn, `
    select count(*) from (select account_id, other_id from follow_event group by all having count(distinct action) = 2 and count(*) >= 2)`)
  assert.ok(refollows > 0, 'some edges change twice (follow then unfollow, or unfollow then follow again)')
})

Generate('ids :: snowflake ids beyond 2^53 and small old ids, exact through bigint', async ({ conn, truth }) => {
  const big = (await conn.runAndReadAll(`select account_id, account_id::VARCHAR as text from accounts order by account_id`)).getRowObjects()
  const ids = big.map((r) => r.account_id as bigint)
  assert.ok(ids.some((id) => id > TWO_POW_53), 'ids above 2^53')
  assert.ok(ids.some((id) => id < 2n ** 31n), 'small old ids')
  for (const row of big) assert.is(BigInt(row.text as string), row.account_id, 'the decimal text is the exact id')
  const known = new Set(big.map((r) => r.text as string))
  for (const id of [...truth.top_accounts, ...truth.gems, ...truth.ring_members]) assert.ok(known.has(id), `truth id ${id} is an account`)
  const tweetIds = await count(conn, `select count(*) from tweets where tweet_id > ${TWO_POW_53}::UBIGINT`)
  assert.is(tweetIds, await count(conn, `select count(*) from tweets`), 'tweet ids are snowflakes')
})

Generate('determinism :: the same seed and end date give the same rows; another seed does not', async ({ conn, dirs }) => {
  for (const { file, key } of RAW_FILES) {
    const main = await rowChecksum(conn, dirs.main, file, key)
    assert.is(await rowChecksum(conn, dirs.again, file, key), main, `${file} is reproducible`)
    if (!['categories.parquet', 'tag_categories.parquet', 'tags.parquet'].includes(file)) {
      assert.is.not(await rowChecksum(conn, dirs.otherSeed, file, key), main, `${file} depends on the seed`)
    }
  }
  const truth = (dir: string) => fs.readFileSync(path.join(dir, '_truth.json'), 'utf8')
  assert.is(truth(dirs.again), truth(dirs.main))
})

Generate('truth :: ring members all follow each other and nobody outside the ring follows them', async ({ conn, truth }) => {
  const ring = idList(truth.ring_members)
  const n = truth.ring_members.length
  assert.ok(n >= 5)
  assert.is(await count(conn, `select count(*) from last_edge where follower_id in ${ring} and followed_id in ${ring}`), n * (n - 1))
  assert.is(await count(conn, `select count(*) from last_edge where followed_id in ${ring} and follower_id not in ${ring}`), 0)
  assert.is(await count(conn, `select count(*) from accounts where account_id in ${ring} and is_monitored and is_active and not is_suspended`), n)
  assert.is(
    await count(conn, `select count(*) from account_categories where account_id in ${ring} and category_id not in (3, 6, 7)`),
    0,
    'ring members are never curated Venture Capitals, Founders, Exchanges, Auditors or Angels',
  )
})

Generate('truth :: bot farm targets are followed mostly by bot-farm members, who nobody reputable follows', async ({ conn, truth }) => {
  const bots = idList(truth.bot_farm_members)
  for (const target of truth.bot_farm_targets) {
    const followers = (await rows(conn, `
      select count(*) as total, count(*) filter (where follower_id in ${bots}) as from_bots
      from last_edge where followed_id = ${target}::UBIGINT`))[0]
    assert.ok(Number(followers.from_bots) >= 0.8 * Number(followers.total), `target ${target}: ${followers.from_bots}/${followers.total}`)
    assert.ok(Number(followers.total) > Number(followers.from_bots), 'mostly, not only, bots')
  }
  assert.is(await count(conn, `select count(*) from last_edge where followed_id in ${bots} and follower_id not in ${bots}`), 0)
  const inflated = await count(conn, `
    select min(followers_count) from accounts where account_id in ${idList(truth.bot_farm_targets)}`)
  assert.ok(inflated >= 10_000, 'the farm inflates follower counts')
})

Generate('truth :: gems are small and followed by top accounts; lonely small accounts by none', async ({ conn, truth }) => {
  const top = idList(truth.top_accounts)
  assert.is(await count(conn, `select count(*) from accounts where account_id in ${idList(truth.gems)} and followers_count <= 3000`), truth.gems.length)
  for (const gem of truth.gems) {
    const fromTop = await count(conn, `select count(*) from last_edge where followed_id = ${gem}::UBIGINT and follower_id in ${top}`)
    assert.ok(fromTop >= 2 && fromTop <= 4, `gem ${gem} followed by ${fromTop} top accounts`)
  }
  const lonely = idList(truth.lonely_small)
  assert.is(await count(conn, `select count(*) from last_edge where followed_id in ${lonely} and follower_id in ${top}`), 0)
  assert.is(await count(conn, `select count(*) from accounts where account_id in ${lonely} and is_monitored and followers_count < 1000`), truth.lonely_small.length)
  const topCategories = await count(conn, `
    select count(distinct account_id) from account_categories where account_id in ${top} and category_id in (1, 4)`)
  assert.is(topCategories, truth.top_accounts.length, 'top accounts are Venture Capitals or Exchanges')
})

Generate('truth :: renames, suspended and inactive accounts match the files', async ({ conn, truth }) => {
  assert.ok(truth.renamed.length > 0)
  for (const { id, old_username, new_username } of truth.renamed) {
    assert.is(await count(conn, `select count(*) from previous_usernames where account_id = ${id}::UBIGINT and username = '${old_username}'`), 1)
    assert.is(await count(conn, `select count(*) from accounts where account_id = ${id}::UBIGINT and username = '${new_username}'`), 1)
  }
  assert.is(
    await count(conn, `
      select count(*) from previous_usernames p join accounts a on lower(a.username) = lower(p.username) or a.slug = lower(p.username)`),
    0,
    'an old handle never collides with a current handle or slug',
  )
  assert.is(await count(conn, `select count(*) from (select lower(username) from accounts group by 1 having count(*) > 1)`), 0)
  assert.is(await count(conn, `select count(*) from accounts where slug <> lower(slug)`), 0)
  assert.ok((await count(conn, `select count(*) from accounts where slug <> lower(username)`)) > 0, 'some slugs differ from the handle')
  assert.is(await count(conn, `select count(*) from accounts where is_suspended`), truth.suspended.length)
  assert.is(await count(conn, `select count(*) from accounts where not is_active`), truth.inactive.length)
  assert.is(await count(conn, `select count(*) from accounts where account_id in ${idList(truth.suspended)} and not is_suspended`), 0)
  assert.ok((await count(conn, `select count(*) from accounts where is_monitored and (is_suspended or not is_active)`)) > 0)
})

Generate('friends :: friend-only records and ids in both tables with a graph score', async ({ conn, truth }) => {
  const both = await count(conn, `select count(*) from friends where account_id in (select account_id from accounts)`)
  assert.ok(both > 0)
  assert.is(await count(conn, `select count(*) from friends where account_id in (select account_id from accounts) and graph_score <= 0`), 0)
  assert.is(await count(conn, `select count(*) from friends where graph_score < 0 or graph_score > 1000`), 0)
  const overlap = idList(truth.friend_overlap_zero)
  assert.is(await count(conn, `select count(*) from friends where account_id in ${overlap}`), truth.friend_overlap_zero.length)
  assert.is(
    await count(conn, `select count(*) from last_edge where followed_id in ${overlap} and follower_id not in ${idList(truth.bot_farm_members)}`),
    0,
    'only bots follow them, so their main score stays near 0',
  )
})

Generate('publish :: generating into an existing folder replaces it as a whole', async ({ dirs }) => {
  fs.writeFileSync(path.join(dirs.again, 'stray.txt'), 'left from an older run')
  await generateRaw({ scale: 'tiny', seed: 42, outDir: dirs.again, endDate: END_DATE })
  assert.not.ok(fs.existsSync(path.join(dirs.again, 'stray.txt')))
  assert.ok(fs.existsSync(path.join(dirs.again, END_DATE, 'follow_scans.parquet')))
  assert.equal(fs.readdirSync(path.dirname(dirs.again)).sort(), ['again', 'main', 'other-seed'])
})

Generate.run()
