/**
 * The files of a snapshot built from the hand-made fixture (test/_fixtures.ts): the manifest lists every Parquet file
 * (the history tables' months included) with its documented columns, rows and sha256, and the serving columns hold
 * the same values as the Parquet files, row for row.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { buildSnapshot } from '../pipeline/build.ts'
import { SERVING_ARRAYS } from '../pipeline/serving-writer.ts'
import { BUILD_DATE, baseRaw, readParquet, tempDir, writeRaw } from './_fixtures.ts'

const built = (async () => {
  const raw = await writeRaw(tempDir('manifest-raw'), baseRaw())
  return buildSnapshot({ rawDir: raw, snapshotsDir: tempDir('manifest-snapshots'), date: BUILD_DATE })
})()

const Manifest = suite('manifest')

/** Columns and types of every file as docs/snapshot.md, docs/extra-operations.md and docs/score.md state them (the server loads them). */
const SCHEMAS: Record<string, string> = {
  'accounts.parquet': 'account_idx INTEGER, platform_id UBIGINT, username VARCHAR, slug VARCHAR, name VARCHAR, description VARCHAR, profile_image VARCHAR, blue_verified BOOLEAN, is_tracked BOOLEAN, is_monitored BOOLEAN, is_active BOOLEAN, is_suspended BOOLEAN, is_smart BOOLEAN, platform_score DOUBLE, rank INTEGER, graph_score DOUBLE, followers_count BIGINT, smart_followers_count INTEGER, score_1d_ago DOUBLE, score_7d_ago DOUBLE, score_30d_ago DOUBLE',
  'previous_usernames.parquet': 'account_idx INTEGER, platform_id UBIGINT, username VARCHAR, changed_at DATE',
  'categories.parquet': 'category_id INTEGER, name VARCHAR',
  'tag_categories.parquet': 'tag_category_id INTEGER, name VARCHAR',
  'tags.parquet': 'tag_id INTEGER, name VARCHAR, tag_category_id INTEGER, tag_category_name VARCHAR',
  'account_categories.parquet': 'account_idx INTEGER, platform_id UBIGINT, category_id INTEGER',
  'account_tags.parquet': 'account_idx INTEGER, platform_id UBIGINT, tag_id INTEGER, tag_category_id INTEGER',
  'smart_followers.parquet': 'target_idx INTEGER, follower_idx INTEGER, target_id UBIGINT, follower_id UBIGINT, subscribed_at TIMESTAMP, follower_score DOUBLE, follower_followers_count BIGINT, pos_by_followers INTEGER, pos_by_subscribed INTEGER',
  'categorized_followers_count.parquet': 'target_idx INTEGER, target_id UBIGINT, ordinal INTEGER, name VARCHAR, category_id INTEGER, cnt BIGINT',
  'followers_count_history/period=*/data.parquet': 'platform_id UBIGINT, date DATE, followers_count BIGINT',
  'followers_diff.parquet': 'account_idx INTEGER, platform_id UBIGINT, week_date DATE, week_diff BIGINT, month_date DATE, month_diff BIGINT',
  'friendship_followed.parquet': 'target_idx INTEGER, target_id UBIGINT, follower_idx INTEGER, follower_id UBIGINT, action VARCHAR, event_date DATE',
  'friendship_following.parquet': 'source_idx INTEGER, source_id UBIGINT, followed_idx INTEGER, followed_id UBIGINT, action VARCHAR, event_date DATE, platform_score DOUBLE',
  'smart_follows.parquet': 'days INTEGER, bucket VARCHAR, rank_alpha INTEGER, pos_by_score INTEGER, pos_by_followers INTEGER, account_idx INTEGER, platform_id UBIGINT, username VARCHAR, name VARCHAR, description VARCHAR, profile_url VARCHAR, profile_image VARCHAR, blue_verified BOOLEAN, platform_score DOUBLE, platform_score_diff DOUBLE, current_followers BIGINT, followers_diff BIGINT, total_alpha_followers BIGINT, new_alpha_followers BIGINT, new_alpha_followers_diff BIGINT, top_alpha_followers STRUCT("name" VARCHAR, username VARCHAR, image VARCHAR, score DOUBLE, verified BOOLEAN)[]',
  'tweets/period=*/data.parquet': 'tweet_id UBIGINT, author_id UBIGINT, created_at TIMESTAMP WITH TIME ZONE, created_at_iso VARCHAR, text VARCHAR, favorites BIGINT, retweets BIGINT, replies BIGINT, views BIGINT, mentioned_ids UBIGINT[]',
  'score_dates.parquet': 'date DATE',
  'score_history/period=*/data.parquet': 'platform_id UBIGINT, date DATE, platform_score DOUBLE',
  'score_ranks/period=*/data.parquet': 'platform_id UBIGINT, date DATE, rank INTEGER',
  'trending.parquet': 'days INTEGER, metric VARCHAR, rank INTEGER, account_idx INTEGER, platform_id UBIGINT, growth DOUBLE, platform_score_diff DOUBLE, smart_followers_diff BIGINT',
  'top_researched.parquet': 'days INTEGER, rank INTEGER, account_idx INTEGER, platform_id UBIGINT, lookups BIGINT',
  'score_explanations.parquet': 'account_idx INTEGER, platform_id UBIGINT, platform_score DOUBLE, rank INTEGER, audience DOUBLE, size_followers DOUBLE, size_divisor DOUBLE, smart_followers INTEGER, trusted_followers INTEGER, saturated_followers INTEGER, reciprocal_followers INTEGER, seed_followers INTEGER, seed_share DOUBLE, top_follower_share DOUBLE, top3_share DOUBLE, is_seed BOOLEAN, seed_standing DOUBLE, seed_endowment DOUBLE, score_7d_ago DOUBLE, score_change_7d DOUBLE, arrived_7d INTEGER, left_7d INTEGER, trusted_7d INTEGER, untrusted_7d INTEGER, arrived_points_7d DOUBLE, left_points_7d DOUBLE, trusted_points_7d DOUBLE, untrusted_points_7d DOUBLE, other_points_7d DOUBLE, score_30d_ago DOUBLE, score_change_30d DOUBLE, arrived_30d INTEGER, left_30d INTEGER, trusted_30d INTEGER, untrusted_30d INTEGER, arrived_points_30d DOUBLE, left_points_30d DOUBLE, trusted_points_30d DOUBLE, untrusted_points_30d DOUBLE, other_points_30d DOUBLE',
  'score_contributors.parquet': 'account_idx INTEGER, platform_id UBIGINT, position INTEGER, follower_idx INTEGER, follower_id UBIGINT, points DOUBLE, share DOUBLE, follower_is_seed BOOLEAN, follower_score DOUBLE, reciprocal BOOLEAN',
  'score_changes.parquet': 'account_idx INTEGER, platform_id UBIGINT, days INTEGER, position INTEGER, change VARCHAR, follower_idx INTEGER, follower_id UBIGINT, follower_is_seed BOOLEAN, points DOUBLE',
}

Manifest('manifest :: every file has exactly the documented columns, types and column order', async () => {
  const { manifest } = await built
  // every part of a history table has the same columns
  const actual = Object.fromEntries(manifest.files.map((f) => [f.file.replace(/period=\d{4}-\d{2}(-\d{2})?/, 'period=*'), f.schema.map((c) => `${c.name} ${c.type}`).join(', ')]))
  assert.equal(actual, SCHEMAS)
})

Manifest('manifest :: every file with rows, sha256 and schema; score params; raw files', async () => {
  const { dir, manifest } = await built
  const onDisk = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'))
  assert.equal(onDisk, manifest)
  assert.is(onDisk.build_date, BUILD_DATE)
  // every Parquet file analysts read (serving/ is the server's: docs/snapshot.md)
  assert.equal(
    onDisk.files.map((f: { file: string }) => f.file).sort(),
    fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.parquet') && !f.startsWith('serving/')).sort(),
  )
  for (const f of onDisk.files) {
    const [{ n }] = await readParquet(path.join(dir, f.file), 'select count(*)::integer as n from t')
    assert.is(n, f.rows, f.file)
    assert.is(f.sha256, createHash('sha256').update(fs.readFileSync(path.join(dir, f.file))).digest('hex'), f.file)
  }
  assert.equal(onDisk.raw_files.length, 11)
  assert.is(onDisk.score_params.alpha, 0.85)
})

Manifest('serving :: the serving columns hold the Parquet files\' values, row for row in file order', async () => {
  const { dir } = await built
  const serving = path.join(dir, 'serving')
  const { columns } = JSON.parse(fs.readFileSync(path.join(serving, 'columns.json'), 'utf8'))
  const column = (name: string) => {
    const Array = SERVING_ARRAYS[columns[name].type as keyof typeof SERVING_ARRAYS]
    const bytes = fs.readFileSync(path.join(serving, `${name}.bin`))
    return [...new Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length))].map(String)
  }
  // [table, serving column, the same value from the Parquet file]
  const cases = [
    ['accounts', 'platform_score', 'platform_score'],
    ['smart_followers', 'follower_idx', 'follower_idx'],
    ['smart_followers', 'subscribed_at_ms', 'epoch_ms(subscribed_at)'],
    ['friendship_following', 'platform_score', 'platform_score'],
    ['score_contributors', 'points', 'points'],
    ['categorized_followers_count', 'cnt', 'cnt'],
  ]
  for (const [table, name, value] of cases) {
    const rows = await readParquet(path.join(dir, `${table}.parquet`), `select (${value}) as v from t`)
    assert.ok(rows.length > 0, table)
    assert.equal(column(`${table}.${name}`), rows.map((r) => String(r.v)), `${table}.${name}`)
  }
  // a history table's parts (the follower counts: October closed, November's weeks; the scores: the build date's
  // week): each account's rows from offsets[k] on, as in the part's Parquet file
  // [table, serving column, its value in the Parquet file, its array, the first part, how many parts at least]
  const histories: [string, string, string, typeof SERVING_ARRAYS[keyof typeof SERVING_ARRAYS], string, number][] = [
    ['followers_count_history', 'followers_count', 'followers_count', Uint32Array, 'period=2026-10', 3],
    ['score_history', 'platform_score', 'platform_score', Float64Array, 'period=2026-11-22', 1],
  ]
  for (const [table, name, value, Values, first, count] of histories) {
    const parts = fs.readdirSync(path.join(dir, table))
    assert.is(parts[0], first, table)
    assert.ok(parts.length >= count && parts.slice(1).every((p) => /^period=2026-11-\d\d$/.test(p)), parts.join())
    assert.equal(fs.readdirSync(path.join(serving, table)), parts, table)
    for (const part of parts) {
      const folder = path.join(serving, table, part)
      const read = (column: string, Array: typeof SERVING_ARRAYS[keyof typeof SERVING_ARRAYS]) => {
        const bytes = fs.readFileSync(path.join(folder, `${column}.bin`))
        return [...new Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length))].map(String)
      }
      const [ids, offsets, values] = [read('platform_id', BigUint64Array), read('offsets', Int32Array), read(name, Values)]
      const rows = await readParquet(path.join(dir, table, part, 'data.parquet'), `select platform_id, (${value}) as v from t`)
      assert.ok(rows.length > 0, part)
      assert.equal(values, rows.map((r) => String(r.v)), `${table} ${part}`)
      assert.equal(ids.flatMap((id, k) => Array(Number(offsets[k + 1]) - Number(offsets[k])).fill(id)), rows.map((r) => String(r.platform_id)), part)
    }
  }
  // the tweets' parts (no key): every column row for row as in the part's Parquet file, the text as bytes
  const months = fs.readdirSync(path.join(dir, 'tweets'))
  assert.ok(months.length > 0)
  for (const part of months) {
    const folder = path.join(serving, 'tweets', part)
    const bytes = (name: string) => fs.readFileSync(path.join(folder, `${name}.bin`))
    const read = (name: string, Array: typeof SERVING_ARRAYS[keyof typeof SERVING_ARRAYS]) => {
      const b = bytes(name)
      return [...new Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length))].map(String)
    }
    const rows = await readParquet(path.join(dir, 'tweets', part, 'data.parquet'), `select *, epoch_ms(created_at) as created_at_ms from t`)
    assert.ok(rows.length > 0, part)
    for (const [name, Array] of [['tweet_id', BigUint64Array], ['author_id', BigUint64Array], ['created_at_ms', Float64Array]] as const) {
      assert.equal(read(name, Array), rows.map((r) => String(r[name])), `${part} ${name}`)
    }
    for (const name of ['favorites', 'retweets', 'replies', 'views']) assert.equal(read(name, Uint32Array), rows.map((r) => String(r[name])), `${part} ${name}`)
    // no per-account key: no platform_id nor offsets
    assert.not.ok(fs.existsSync(path.join(folder, 'platform_id.bin')) || fs.existsSync(path.join(folder, 'offsets.bin')), part)
    const ends = read('text.offsets', Float64Array).map(Number)
    const utf8 = bytes('text.utf8')
    const nulls = bytes('text.null')
    const texts = rows.map((_, i) => (nulls[i] ? null : utf8.toString('utf8', ends[i], ends[i + 1])))
    assert.equal(texts, rows.map((r) => r.text), part)
  }
})

Manifest.run()
