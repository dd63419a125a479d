/**
 * Publication and history: deterministic rebuilds, the atomic `current` symlink, keeping the last N snapshots,
 * published folders left untouched, and the score history kept in the state by every build and by the backfill.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { buildSnapshot } from '../pipeline/build.ts'
import { DuckDBInstance } from '@duckdb/node-api'
import { MARTS } from '../pipeline/models.ts'
import { BUILD_DATE, baseRaw, readParquet, tempDir, writeRaw } from './_fixtures.ts'

const rawDir = writeRaw(tempDir('publish-raw'), baseRaw())

async function allRows(dir: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {}
  for (const mart of MARTS) out[mart] = await readParquet(path.join(dir, `${mart}.parquet`))
  return out
}

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')

const Publish = suite('publish')

Publish('publish :: rebuilding a date from the same raw gives the same rows in a new folder', async () => {
  const snapshots = tempDir('publish-snapshots')
  const first = await buildSnapshot({ rawDir: await rawDir, snapshotsDir: snapshots, date: BUILD_DATE })
  const second = await buildSnapshot({ rawDir: await rawDir, snapshotsDir: snapshots, date: BUILD_DATE })
  assert.is.not(first.snapshotId, second.snapshotId)
  assert.ok(first.snapshotId.startsWith(`${BUILD_DATE}_`))
  assert.equal(await allRows(second.dir), await allRows(first.dir))
  assert.is(fs.readlinkSync(path.join(snapshots, 'current')), second.snapshotId)
  // the first folder was not written again: its files still match its manifest
  for (const f of first.manifest.files) assert.is(sha256(path.join(first.dir, f.file)), f.sha256, f.file)
})

Publish('publish :: current is a relative symlink swapped by rename; only the last N folders are kept', async () => {
  const snapshots = tempDir('publish-keep')
  const ids: string[] = []
  for (let i = 0; i < 3; i++) {
    ids.push((await buildSnapshot({ rawDir: await rawDir, snapshotsDir: snapshots, date: BUILD_DATE, keep: 2 })).snapshotId)
  }
  assert.is(fs.readlinkSync(path.join(snapshots, 'current')), ids[2])
  const left = fs.readdirSync(snapshots).filter((n) => /^\d{4}-/.test(n)).sort()
  assert.equal(left, [ids[1], ids[2]].sort())
  assert.ok(fs.existsSync(path.join(snapshots, 'current', 'accounts.parquet')))
})

const History = suite('score history')

/** The scores > 0 of one date from the state's sparse score history (each account's last row on or before it). */
async function historyOf(snapshots: string, date: string) {
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  try {
    await conn.run(`attach '${path.join(snapshots, 'state', 'state.duckdb')}' as st (read_only)`)
    return (await conn.runAndReadAll(`select platform_id, platform_score, rank from (
        select * from st.score_history where score_date <= DATE '${date}'
        qualify row_number() over (partition by platform_id order by score_date desc) = 1)
      where platform_score > 0 order by platform_id`)).getRowObjectsJson()
  } finally {
    conn.closeSync()
    instance.closeSync()
  }
}

async function scoredDates(snapshots: string): Promise<string[]> {
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  try {
    await conn.run(`attach '${path.join(snapshots, 'state', 'state.duckdb')}' as st (read_only)`)
    return (await conn.runAndReadAll('select score_date::varchar from st.score_dates order by 1')).getRows().map((r) => String(r[0]))
  } finally {
    conn.closeSync()
    instance.closeSync()
  }
}

History('history :: every build keeps its scores > 0 in the state', async () => {
  const snapshots = tempDir('history-build')
  const { dir } = await buildSnapshot({ rawDir: await rawDir, snapshotsDir: snapshots, date: BUILD_DATE })
  const history = await historyOf(snapshots, BUILD_DATE)
  const accounts = await readParquet(path.join(dir, 'accounts.parquet'), 'select platform_id, platform_score, rank from t where platform_score > 0 order by platform_id')
  assert.equal(history, accounts)
})

History('history :: backfill scores earlier dates from the scans as of each date and fills the look-backs', async () => {
  const snapshots = tempDir('history-backfill')
  const { dir } = await buildSnapshot({ rawDir: await rawDir, snapshotsDir: snapshots, date: BUILD_DATE, backfillDays: 7 })
  assert.equal(await scoredDates(snapshots), ['15', '16', '17', '18', '19', '20', '21', '22'].map((d) => `2026-11-${d}`))

  // the backfilled 11-21 equals a build dated 11-21
  const direct = tempDir('history-direct')
  await buildSnapshot({ rawDir: await rawDir, snapshotsDir: direct, date: '2026-11-21' })
  const day = (root: string) => historyOf(root, '2026-11-21')
  assert.equal(await day(snapshots), await day(direct))

  const scores1d = Object.fromEntries((await day(snapshots)).map((r) => [r.platform_id, r.platform_score]))
  const accounts = await readParquet(path.join(dir, 'accounts.parquet'))
  for (const a of accounts) {
    assert.is(a.score_1d_ago, scores1d[a.platform_id as string] ?? 0, `score_1d_ago of ${a.username}`)
    assert.ok(a.score_7d_ago !== null && a.score_30d_ago === null)
  }
  // 11-15: VcOne had not yet followed SmallGem, so its score moved within the week
  const gem = accounts.find((a) => a.username === 'SmallGem')!
  assert.ok(gem.platform_score !== gem.score_7d_ago)

  const byId = Object.fromEntries(accounts.map((a) => [a.platform_id, a]))
  const items = await readParquet(path.join(dir, 'smart_follows.parquet'))
  for (const item of items) {
    const a = byId[item.platform_id as string]
    const ago = item.days === 1 ? a.score_1d_ago : item.days === 7 ? a.score_7d_ago : null
    const expected = ago === null ? 0 : Math.round(((a.platform_score as number) - (ago as number)) * 100) / 100
    assert.ok(Math.abs((item.platform_score_diff as number) - expected) < 1e-9, `${item.days}/${item.bucket}/${a.username}`)
  }
})

Publish.run()
History.run()
