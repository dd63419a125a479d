/**
 * Raw ingest and audits: bad raw files and broken marts fail the build with the file, row and reason (or the audit
 * and sample rows), the CLI exits non-zero, and `snapshots/current` keeps pointing at the last good snapshot.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { AuditError } from '../pipeline/audit-error.ts'
import { buildSnapshot, runAudits, runModels } from '../pipeline/build.ts'
import { openPipelineDb } from '../pipeline/duckdb.ts'
import { historyBasis, runHistoryModels, writeHistoryParts } from '../pipeline/history-parts.ts'
import { RawInputError } from '../pipeline/validate-raw.ts'
import { BUILD_DATE, baseRaw, id, rewriteRaw, tempDir, writeDailyRaw, writeRaw, type RawRows } from './_fixtures.ts'

const snapshotsDir = tempDir('ingest-snapshots')
const good = (async () => {
  const raw = await writeRaw(tempDir('ingest-raw'), baseRaw())
  return buildSnapshot({ rawDir: raw, snapshotsDir, date: BUILD_DATE })
})()

async function rawWith(change: (rows: RawRows) => void): Promise<string> {
  const rows = baseRaw()
  change(rows)
  return writeRaw(tempDir('ingest-bad'), rows)
}

async function expectRejected(rawDir: string, expected: { file: string; row?: number; reason: RegExp }) {
  const { snapshotId } = await good
  try {
    await buildSnapshot({ rawDir, snapshotsDir, date: BUILD_DATE })
    assert.unreachable('build should fail')
  } catch (error) {
    if (!(error instanceof RawInputError)) throw error
    assert.is(error.file, expected.file)
    assert.is(error.row, expected.row)
    assert.match(error.reason, expected.reason)
  }
  assert.is(fs.readlinkSync(path.join(snapshotsDir, 'current')), snapshotId)
  assert.equal(fs.readdirSync(snapshotsDir).filter((n) => n.startsWith('.tmp-')), [])
}

const Raw = suite('raw ingest')

Raw('raw ingest :: a missing file fails with its name, current untouched', async () => {
  const dir = await rawWith(() => {})
  fs.rmSync(path.join(dir, 'tweets.parquet'))
  await expectRejected(dir, { file: 'tweets.parquet', reason: /missing file/ })
})

Raw('raw ingest :: a wrong column type fails with the column and both types', async () => {
  const dir = await rawWith(() => {})
  await rewriteRaw(dir, 'accounts.parquet', 'select * replace (cast(followers_count as varchar) as followers_count) from t')
  await expectRejected(dir, { file: 'accounts.parquet', reason: /column followers_count has type VARCHAR, expected BIGINT/ })
})

Raw('raw ingest :: a missing column fails', async () => {
  const dir = await rawWith(() => {})
  await rewriteRaw(dir, 'friends.parquet', 'select * exclude (graph_score) from t')
  await expectRejected(dir, { file: 'friends.parquet', reason: /missing column graph_score/ })
})

Raw('raw ingest :: a truncated Parquet file fails as unreadable', async () => {
  const dir = await rawWith(() => {})
  const file = path.join(dir, 'follow_scans.parquet')
  const bytes = fs.readFileSync(file)
  fs.writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)))
  await expectRejected(dir, { file: 'follow_scans.parquet', reason: /unreadable or truncated Parquet/ })
})

Raw('raw ingest :: text that is not valid UTF-8, in a required or an optional column, fails naming the file and column', async () => {
  for (const [file, column, key] of [['tweets.parquet', 'text', 'tweet_id'], ['accounts.parquet', 'description', 'account_id']] as const) {
    const dir = await rawWith(() => {})
    const target = path.join(dir, file)
    // a marker in one row, written uncompressed so that its bytes can be replaced by an invalid UTF-8 sequence
    await rewriteRaw(dir, file, `select * replace (if(${key} = (select min(${key}) from t), 'ZZmarkZZ', ${column}) as ${column}) from t`)
    const copy = `${target}.plain.parquet`
    const instance = await DuckDBInstance.create(':memory:')
    const conn = await instance.connect()
    await conn.run(`copy (from read_parquet('${target}')) to '${copy}' (format parquet, compression uncompressed)`)
    conn.closeSync()
    instance.closeSync()
    const bytes = fs.readFileSync(copy)
    const marker = Buffer.from('ZZmarkZZ')
    const broken = Buffer.from([0x5a, 0x5a, 0xc3, 0x28, 0x5a, 0x5a, 0x5a, 0x5a])
    let at = bytes.indexOf(marker)
    assert.ok(at >= 0)
    for (; at >= 0; at = bytes.indexOf(marker, at + 1)) broken.copy(bytes, at)
    fs.writeFileSync(target, bytes)
    fs.rmSync(copy)
    await expectRejected(dir, { file, reason: new RegExp(`${column} holds text that is not valid UTF-8`) })
  }
})

Raw('raw ingest :: an import of day folders names the day folder of a bad file, and takes copies that differ in extra columns', async () => {
  const days = ['2026-11-16', '2026-11-20', '2026-11-22']
  const importing = async (change: (raw: string) => Promise<void>) => {
    const raw = await writeDailyRaw(tempDir('ingest-days'), baseRaw(), days)
    await change(raw)
    return buildSnapshot({ rawDir: raw, snapshotsDir: tempDir('ingest-days-snapshots'), date: BUILD_DATE })
  }
  const rejected = async (change: (raw: string) => Promise<void>, expected: { file: string; row?: number; reason: RegExp }) => {
    const error = await importing(change).then(() => assert.unreachable('the import should fail'), (e: unknown) => e)
    if (!(error instanceof RawInputError)) throw error
    assert.equal([error.file, error.row], [expected.file, expected.row])
    assert.match(error.reason, expected.reason)
  }
  // the middle day's accounts cut in half
  await rejected(async (raw) => {
    const file = path.join(raw, '2026-11-20', 'accounts.parquet')
    fs.writeFileSync(file, fs.readFileSync(file).subarray(0, 100))
  }, { file: '2026-11-20/accounts.parquet', reason: /unreadable or truncated Parquet/ })
  // a negative count in the middle day's second row, and another in the last day's: the first day's is named
  await rejected(async (raw) => {
    await rewriteRaw(path.join(raw, '2026-11-20'), 'follower_counts.parquet', `select * replace (if(account_id = ${id(7)}, -1, followers_count) as followers_count) from t`)
    await rewriteRaw(path.join(raw, '2026-11-22'), 'follower_counts.parquet', 'select * replace (-2::bigint as followers_count) from t')
  }, { file: '2026-11-20/follower_counts.parquet', row: 2, reason: /negative followers_count \(got -1\)/ })
  // a column the contract does not know, of another type in each day: ignored
  const built = await importing(async (raw) => {
    await rewriteRaw(path.join(raw, '2026-11-16'), 'tweets.parquet', `select *, {'a': 1} as crawler_note from t`)
    await rewriteRaw(path.join(raw, '2026-11-20'), 'tweets.parquet', 'select *, 1::integer as crawler_note from t')
  })
  assert.ok(built.manifest.raw_files.some((f) => f.file === '2026-11-20/tweets.parquet'))
})

Raw('raw ingest :: a duplicated key fails with the first duplicate and its 1-based row', async () => {
  const dir = await rawWith((rows) => {
    const scans = rows['follow_scans.parquet']
    scans.push([...scans[6]]) // account 3's 11-22 scan again, as row 20
  })
  await expectRejected(dir, { file: 'follow_scans.parquet', row: 20, reason: new RegExp(`duplicated key \\(account_id=${id(3)}, scan_date=2026-11-22\\)`) })
})

Raw('raw ingest :: a null key fails with its row', async () => {
  const dir = await rawWith((rows) => {
    rows['categories.parquet'][2][0] = null
  })
  await expectRejected(dir, { file: 'categories.parquet', row: 3, reason: /null key/ })
})

Raw('raw ingest :: an unparsable created_at fails with its row', async () => {
  const dir = await rawWith((rows) => {
    rows['tweets.parquet'][1][2] = 'yesterday at noon'
  })
  await expectRejected(dir, { file: 'tweets.parquet', row: 2, reason: /created_at "yesterday at noon" is not a valid TIMESTAMPTZ/ })
})

Raw('raw ingest :: the CLI exits non-zero and prints file, row and reason', async () => {
  await good
  const dir = await rawWith((rows) => {
    rows['tags.parquet'].push([10, 'DeFi again', 1])
  })
  const cli = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/build.ts', '--raw', dir, '--snapshots', snapshotsDir, '--date', BUILD_DATE],
    { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'error' } },
  )
  assert.is(cli.status, 1)
  assert.match(cli.stderr, 'raw input rejected: tags.parquet row 4: duplicated key (tag_id=10)')
})

Raw('build CLI :: a date after today is refused before anything is read or written (it would commit gap days)', () => {
  const snapshotsDir = tempDir('cli-future')
  // two days ahead: still after today if midnight (UTC) passes while the CLI starts
  const later = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)
  const cli = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/build.ts', '--raw', tempDir('cli-future-raw'), '--snapshots', snapshotsDir, '--date', later],
    { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'error' } },
  )
  assert.is(cli.status, 2, cli.stderr)
  assert.match(cli.stderr, `--date ${later} is after today`)
  assert.equal(fs.readdirSync(snapshotsDir), [])
})

Raw('build CLI :: without flags it builds into SNAPSHOTS_DIR and reads the lookups under DATA_DIR, where the server works', async () => {
  const raw = await writeRaw(tempDir('cli-env-raw'), baseRaw())
  const home = tempDir('cli-env')
  fs.mkdirSync(path.join(home, 'data', 'lookups'), { recursive: true })
  fs.writeFileSync(path.join(home, 'data', 'lookups', '2026-11-20.ndjson'), JSON.stringify({ at: '2026-11-20T10:00:00Z', operation: 'get_platform_score', platform_id: id(4) }) + '\n')
  const cli = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--date', BUILD_DATE], {
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'error', RAW_DIR: raw, SNAPSHOTS_DIR: path.join(home, 'served'), DATA_DIR: path.join(home, 'data') },
  })
  assert.is(cli.status, 0, cli.stderr)
  assert.ok(fs.existsSync(path.join(home, 'served', 'current', 'manifest.json')))
  assert.ok(fs.existsSync(path.join(home, 'served', 'last-build.json')))
  // the complete lookup file was folded into the state and deleted
  assert.equal(fs.readdirSync(path.join(home, 'data', 'lookups')), [])
})

const Audits = suite('audits')

Raw('raw :: an unknown followed id in a scan that is not the latest names the raw file, row and id', async () => {
  const dir = await rawWith((rows) => {
    rows['follow_scans.parquet'].push(['2026-11-11', '2026-11-11 07:00:00', id(10), [id(11), id(77)]])
  })
  await expectRejected(dir, { file: 'follow_scans.parquet', row: 20, reason: new RegExp(`unknown followed id ${id(77)}`) })
})

/** One broken value per case: the build fails naming the file, the 1-based row and the column (docs/raw-data.md). */
type BrokenRow = [what: string, change: (rows: RawRows) => void, file: string, row: number, reason: RegExp]

async function expectEachRejected(cases: BrokenRow[]) {
  for (const [what, change, file, row, reason] of cases) {
    try {
      await expectRejected(await rawWith(change), { file, row, reason })
    } catch (error) {
      if (error instanceof Error) error.message = `${what}: ${error.message}`
      throw error
    }
  }
}

Raw('raw :: a NULL in a column the contract does not mark NULL names the file, row and column', async () => {
  await expectEachRejected([
    ['scan list', (r) => { r['follow_scans.parquet'][6][3] = null }, 'follow_scans.parquet', 7, /null following_ids/],
    ['scan time', (r) => { r['follow_scans.parquet'][4][1] = null }, 'follow_scans.parquet', 5, /null scanned_at/],
    ['tweet time', (r) => { r['tweets.parquet'][1][2] = null }, 'tweets.parquet', 2, /null created_at/],
    ['tweet mentions', (r) => { r['tweets.parquet'][0][9] = null }, 'tweets.parquet', 1, /null mentioned_ids/],
    ['tweet links', (r) => { r['tweets.parquet'][2][4] = null }, 'tweets.parquet', 3, /null urls/],
    ['tweet counter', (r) => { r['tweets.parquet'][3][8] = null }, 'tweets.parquet', 4, /null views/],
    ['follower count', (r) => { r['follower_counts.parquet'][2][2] = null }, 'follower_counts.parquet', 3, /null followers_count/],
    ['monitored flag', (r) => { r['accounts.parquet'][7][9] = null }, 'accounts.parquet', 8, /null is_monitored/],
    ['handle', (r) => { r['accounts.parquet'][2][1] = null }, 'accounts.parquet', 3, /null username/],
    ['slug', (r) => { r['accounts.parquet'][4][2] = null }, 'accounts.parquet', 5, /null slug/],
    ['friend score', (r) => { r['friends.parquet'][1][6] = null }, 'friends.parquet', 2, /null graph_score/],
    ['rename date', (r) => { r['previous_usernames.parquet'][1][2] = null }, 'previous_usernames.parquet', 2, /null changed_at/],
    ['tag category', (r) => { r['tags.parquet'][2][2] = null }, 'tags.parquet', 3, /null tag_category_id/],
    ['category name', (r) => { r['categories.parquet'][5][1] = null }, 'categories.parquet', 6, /null name/],
  ])
})

Raw('raw :: a NULL id inside a list of ids names the file, row and column', async () => {
  await expectEachRejected([
    ['followed', (r) => { r['follow_scans.parquet'][2][3] = [id(4), null] }, 'follow_scans.parquet', 3, /null item in following_ids/],
    ['mentioned', (r) => { r['tweets.parquet'][2][9] = [id(7), null] }, 'tweets.parquet', 3, /null item in mentioned_ids/],
  ])
})

Raw('raw :: NULL where the contract allows it (profile texts, tweet text) builds', async () => {
  const dir = await rawWith((rows) => {
    rows['accounts.parquet'][0].splice(3, 3, null, null, null)
    rows['friends.parquet'][0].splice(2, 3, null, null, null)
    rows['tweets.parquet'][0][3] = null
  })
  const built = await buildSnapshot({ rawDir: dir, snapshotsDir: tempDir('ingest-nullable'), date: BUILD_DATE })
  assert.ok(fs.existsSync(path.join(built.dir, 'manifest.json')))
})

Raw('raw :: a graph_score that is not a finite number in 0..1000 names the file, row and value', async () => {
  const friendScore = (value: string) => async () => {
    const dir = await rawWith(() => {})
    await rewriteRaw(dir, 'friends.parquet', `select * replace (if(account_id = ${id(4)}, ${value}, graph_score) as graph_score) from t`)
    return dir
  }
  for (const [value, shown] of [["'nan'::double", 'nan'], ["'inf'::double", 'inf'], ['1e9', '1000000000'], ['-0.5', '-0.5'], ['1000.01', '1000.01']]) {
    await expectRejected(await friendScore(value)(), {
      file: 'friends.parquet', row: 2, reason: new RegExp(`graph_score ${shown}.* 0\\.\\.1000`),
    })
  }
  // the bounds themselves are scores
  const bounds = await rawWith((rows) => {
    rows['friends.parquet'][0][6] = 0
    rows['friends.parquet'][1][6] = 1000
  })
  await buildSnapshot({ rawDir: bounds, snapshotsDir: tempDir('ingest-bounds'), date: BUILD_DATE })
})

Raw('raw :: a negative counter of a full or friend record names the file, row and value', async () => {
  await expectEachRejected([
    ['account', (r) => { r['accounts.parquet'][3][10] = -1 }, 'accounts.parquet', 4, /negative followers_count \(got -1\)/],
    ['friend', (r) => { r['friends.parquet'][2][5] = -9 }, 'friends.parquet', 3, /negative followers_count \(got -9\)/],
  ])
})

Raw('raw :: an empty or blank handle of a full record, a friend or a rename names the file, row and column', async () => {
  await expectEachRejected([
    ['account', (r) => { r['accounts.parquet'][2][1] = '' }, 'accounts.parquet', 3, /empty username ""/],
    ['friend', (r) => { r['friends.parquet'][1][1] = '   ' }, 'friends.parquet', 2, /empty username "   "/],
    ['rename', (r) => { r['previous_usernames.parquet'][0][1] = '' }, 'previous_usernames.parquet', 1, /empty username ""/],
    ['tab', (r) => { r['accounts.parquet'][4][1] = '\t' }, 'accounts.parquet', 5, /empty username "\t"/],
    ['zero-width space', (r) => { r['accounts.parquet'][5][1] = '\u200b\n' }, 'accounts.parquet', 6, /empty username/],
  ])
})

Raw('raw :: a scan of an account that is not in accounts.parquet names the scan file, row and id', async () => {
  const dir = await rawWith((rows) => {
    // account 13 is a friend-only record: never scanned (only monitored full accounts are)
    rows['follow_scans.parquet'].push(['2026-11-12', '2026-11-12 07:00:00', id(13), [id(1)]])
    rows['follow_scans.parquet'].push(['2026-11-12', '2026-11-12 07:00:00', id(77), []])
  })
  await expectRejected(dir, { file: 'follow_scans.parquet', row: 20, reason: new RegExp(`scanned account_id ${id(13)}.*not in accounts\\.parquet`) })
})

Raw('raw :: a follower count of an account that is not in accounts.parquet names the count file, row and id', async () => {
  const dir = await rawWith((rows) => {
    rows['follower_counts.parquet'].push(['2026-11-12', id(77), 10])
  })
  const row = baseRaw()['follower_counts.parquet'].length + 1
  await expectRejected(dir, { file: 'follower_counts.parquet', row, reason: new RegExp(`scanned account_id ${id(77)}.*not in accounts\\.parquet`) })
})

Raw('raw :: a label id its reference table does not define names the label file, row and id', async () => {
  // docs/raw-data.md: category and tag ids of the assignments, and tag categories of the tags, are defined
  const cases: [string, (rows: RawRows) => void, number, RegExp][] = [
    ['account_categories.parquet', (rows) => rows['account_categories.parquet'].push([id(5), 99]), 0, /unknown category_id 99 \(not in categories\.parquet\)/],
    ['account_tags.parquet', (rows) => rows['account_tags.parquet'].push([id(5), 77]), 5, /unknown tag_id 77 \(not in tags\.parquet\)/],
    ['tags.parquet', (rows) => rows['tags.parquet'].push([30, 'Solana', 9]), 4, /unknown tag_category_id 9 \(not in tag_categories\.parquet\)/],
  ]
  for (const [file, change, row, reason] of cases) {
    const dir = await rawWith(change)
    const rows = baseRaw()
    change(rows)
    await expectRejected(dir, { file, row: row || rows[file].length, reason })
  }
})

/** Each audit fires on a mart broken after the models ran (the same database the build would publish). */
const broken: [string, string][] = [
  ['not_null_ids', `update friendship_followed set follower_idx = null where rowid = 0`],
  ['unique_keys', `insert into smart_followers select * from smart_followers limit 1`],
  ['scores_in_range', `update accounts set platform_score = 1000.5 where account_idx = 0`],
  ['list_caps', `update smart_follows set top_alpha_followers = list_concat(top_alpha_followers, top_alpha_followers, top_alpha_followers, top_alpha_followers, top_alpha_followers, top_alpha_followers) where rank_alpha = 1`],
  ['sort_orders', `update friendship_followed set event_date = event_date - 100 where rowid = 0`],
  ['sort_orders', `update smart_follows set pos_by_score = pos_by_score + 1 where rowid = 0`],
  ['sort_orders', `insert into score_dates select * from score_dates`],
]

Audits('audits :: each audit fails on the breakage it guards against, and passes on the clean models', async () => {
  const raw = await writeRaw(tempDir('audit-raw'), baseRaw())
  const db = await openPipelineDb()
  try {
    const snapshots = tempDir('audit-snapshots')
    await runModels(db, { rawDir: raw, snapshotsDir: snapshots, date: BUILD_DATE }, path.join(snapshots, 'state'))
    const basis = historyBasis(null, BUILD_DATE, null)
    await runHistoryModels(db.conn, basis)
    await runAudits(db.conn)
    await db.conn.run('checkpoint')
    for (const [audit, breakage] of broken) {
      await db.conn.run('begin transaction')
      await db.conn.run(breakage)
      try {
        await runAudits(db.conn)
        assert.unreachable(`${audit} should fail after: ${breakage}`)
      } catch (error) {
        if (!(error instanceof AuditError)) throw error
        assert.is(error.audit, audit, breakage)
        assert.ok(error.sample.length > 0)
      }
      await db.conn.run('rollback')
    }
    // a history table's key twice (an account's date, a tweet, an account's score on a date): its part is not written
    for (const [table, kind] of [['followers_count_history', 'view'], ['tweets', 'view'], ['score_history', 'table']]) {
      await db.conn.run('begin transaction')
      // the table's model with its first row twice
      await db.conn.run(`alter ${kind} ${table} rename to ${table}_once`)
      await db.conn.run(`create view ${table} as select * from ${table}_once union all (select * from ${table}_once limit 1)`)
      try {
        await writeHistoryParts(db.conn, tempDir('audit-parts'), BUILD_DATE, basis)
        assert.unreachable(`a repeated key in ${table} must fail the build`)
      } catch (error) {
        if (!(error instanceof AuditError)) throw error
        assert.is(error.audit, 'history_unique_keys')
        assert.match(String(error.sample[0].table) + ' ' + String(error.sample[0].period), new RegExp(`^${table} 2026-1\\d(-\\d\\d)?$`))
      }
      await db.conn.run('rollback')
    }
  } finally {
    db.close()
  }
})

Raw.run()
Audits.run()
