import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { serverConfigFromEnv } from '../server/config.ts'
import { LookupRecorder } from '../server/lookups.ts'
import { DAY_MS } from '../server/params/dates.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { paginationCases } from './_pagination.ts'
import { scored } from './_scored.ts'
import { setup } from './_setup.ts'

const Top = suite('get_top_researched')
const OP = 'get_top_researched'

/** The recording server's lines for today (the suite's lookups run today). */
async function recordedLines() {
  const { lookupsDir, today } = await scored()
  const text = fs.readFileSync(path.join(lookupsDir, `${today}.ndjson`), 'utf8')
  return text.trimEnd().split('\n').map((line) => JSON.parse(line))
}

/** Expected rows: lookups per account counted here from what was sent, profile fields by SQL, lookups desc then id. */
async function expectedRows(days: number) {
  const { recorded, older, query } = await scored()
  const counts = new Map<string, number>()
  for (const { records } of recorded) if (records) counts.set(records, (counts.get(records) ?? 0) + 1)
  for (const { platformId, daysBack, count } of older) {
    if (daysBack < days) counts.set(platformId, (counts.get(platformId) ?? 0) + count)
  }
  const ids = [...counts.keys()]
  const profiles = await query<{ platform_id: string }>(`
    SELECT platform_id::VARCHAR AS platform_id, username, name, profile_image, platform_score,
           followers_count::DOUBLE AS followers_count
    FROM accounts WHERE platform_id::VARCHAR IN (${ids.map((id) => `'${id}'`).join(',')})`)
  return profiles
    .map((p) => ({ ...p, lookups: counts.get(p.platform_id)! }))
    .sort((x, y) => y.lookups - x.lookups || (BigInt(x.platform_id) < BigInt(y.platform_id) ? -1 : 1))
}

Top('recorder :: one line per successful account lookup, in order, with only at, operation and platform_id', async () => {
  const { recorded } = await scored()
  const { key } = await setup()
  const lines = await recordedLines()
  const expected = recorded.filter((r) => r.records !== null).map((r) => ({ operation: r.operation, platform_id: r.records }))
  assert.equal(lines.map(({ operation, platform_id }) => ({ operation, platform_id })), expected)
  for (const line of lines) {
    assert.equal(Object.keys(line), ['at', 'operation', 'platform_id'])
    assert.match(line.at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
    assert.ok(Math.abs(Date.parse(line.at) - Date.now()) < 10 * 60_000, line.at)
  }
  const text = fs.readFileSync(path.join((await scored()).lookupsDir, `${(await scored()).today}.ndjson`), 'utf8')
  for (const secret of [key, key.slice(0, 12), '127.0.0.1', 'user']) assert.not.ok(text.includes(secret), secret)
})

Top('recorder :: buffered lines reach the file of their UTC date on flush, appended after what is there', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookups-'))
  const yesterday = Date.now() - DAY_MS
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
  fs.writeFileSync(path.join(dir, `${day(Date.now())}.ndjson`), '{"kept":true}\n')
  const recorder = new LookupRecorder(dir)
  recorder.record('get_platform_score', '1')
  recorder.record('get_platform_info', '2', yesterday)
  assert.is(fs.readFileSync(path.join(dir, `${day(Date.now())}.ndjson`), 'utf8'), '{"kept":true}\n', 'nothing written before a flush')
  await recorder.close()
  const today = fs.readFileSync(path.join(dir, `${day(Date.now())}.ndjson`), 'utf8').trimEnd().split('\n')
  assert.is(today[0], '{"kept":true}')
  assert.equal(JSON.parse(today[1]).platform_id, '1')
  assert.equal(JSON.parse(fs.readFileSync(path.join(dir, `${day(yesterday)}.ndjson`), 'utf8')).operation, 'get_platform_info')
  fs.rmSync(dir, { recursive: true, force: true })
})

Top('recorder :: on by default in DATA_DIR/lookups; LOOKUPS_RECORD=0 turns it off', () => {
  assert.is(serverConfigFromEnv({ DATA_DIR: '/srv/api' }).lookupsDir, '/srv/api/lookups')
  assert.is(serverConfigFromEnv({ LOOKUPS_RECORD: '0' }).lookupsDir, null)
})

Top('happy :: days=1 lists the accounts looked up today, most lookups first, then platform_id', async () => {
  const { get } = await scored()
  const res = await get(OP, { days: 1, size: 100 })
  const expected = await expectedRows(1)
  assert.equal(expected.map((r) => r.lookups), [3, 2, 1], 'three accounts with 3, 2 and 1 lookups')
  assert.equal(res.body, { success: true, total: 3, page: 1, size: 3, pages: 1, days: 1, data: expected })
  await assertMatchesOpenApi(OP, res)
})

Top('days :: 7 adds the lookups 3 days back, 30 also those 20 days back; the default is 7', async () => {
  const { get } = await scored()
  for (const days of [7, 30]) {
    const res = await get(OP, { days, size: 100 })
    assert.equal(res.body.data, await expectedRows(days))
    assert.is(res.body.days, days)
    await assertMatchesOpenApi(OP, res)
  }
  assert.is((await expectedRows(7)).length, 4)
  assert.is((await expectedRows(30)).length, 5)
  assert.equal((await get(OP, { size: 100 })).body, (await get(OP, { days: 7, size: 100 })).body)
  assert.equal((await get(OP, { days: 'abc', size: 100 })).body, (await get(OP, { days: 7, size: 100 })).body)
})

Top('days :: any other number fails with the spec’s message', async () => {
  const { get } = await scored()
  for (const days of [0, 2, 14, 31, -7]) {
    const res = await get(OP, { days })
    assert.equal(res.body.error.code, 'invalid_params')
    assert.is(res.body.message, 'Days param is only available: 1|7|30')
    await assertMatchesOpenApi(OP, res)
  }
})

Top('snapshot :: agrees with top_researched.parquet', async () => {
  const { get, query } = await scored()
  for (const days of [1, 7, 30]) {
    const rows = await query(`
      SELECT platform_id::VARCHAR AS platform_id, lookups::INTEGER AS lookups FROM top_researched
      WHERE days = ${days} ORDER BY rank`)
    const { body } = await get(OP, { days, size: 100 })
    assert.equal(body.data.map((r: any) => ({ platform_id: r.platform_id, lookups: r.lookups })), rows)
  }
})

Top('empty :: a snapshot built without lookups lists nothing', async () => {
  const { get } = await setup()
  const res = await get(OP, { days: 30 })
  assert.equal(res.body, { success: true, total: 0, page: 1, size: 0, pages: 1, days: 30, data: [] })
  await assertMatchesOpenApi(OP, res)
})

paginationCases(Top, OP, () => ({ days: 30 }), { default: 10, max: 100 }, 'data', scored)

Top.run()
