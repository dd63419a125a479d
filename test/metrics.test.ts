import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { request, setup } from './_setup.ts'

const test = suite('metrics')

const scrape = async (base: string) => {
  const res = await fetch(`${base}metrics`)
  assert.is(res.status, 200)
  assert.match(res.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/)
  return res.text()
}

/** The value of one series, e.g. `api_requests_total{operation="get_categories",code="ok"}`; 0 when absent. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line ? Number(line.slice(series.length + 1)) : 0
}

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1')
  await new Promise((r) => server.once('listening', r))
  const { port } = server.address() as net.AddressInfo
  await new Promise((r) => server.close(r))
  return port
}

test('metrics :: requests by operation and outcome, latency, cache hits and misses, refusals', async () => {
  const { server, key, get } = await setup()
  const before = await scrape(server.url)
  // a query no other test sends (unknown parameters are ignored, and part of the cache key): a miss, then a hit
  const query = { size: 3, _metrics: `${process.pid}-${Date.now()}` }
  await get('get_categories', query)
  await get('get_categories', query)
  await get('get_followers', {})
  await get('get_followers', { username: 'nobody-at-all-here' })
  const after = await scrape(server.url)
  const delta = (series: string) => value(after, series) - value(before, series)
  assert.is(delta('api_requests_total{operation="get_categories",code="ok"}'), 2)
  assert.is(delta('api_requests_total{operation="get_followers",code="invalid_params"}'), 1)
  assert.is(delta('api_requests_total{operation="get_followers",code="account_not_found"}'), 1)
  assert.is(delta('api_request_duration_seconds_count{operation="get_categories"}'), 2)
  assert.is(delta('api_cache_requests_total{operation="get_categories",result="miss"}'), 1)
  assert.is(delta('api_cache_requests_total{operation="get_categories",result="hit"}'), 1)
  assert.not.ok(after.includes(key), 'no key in the metrics')
})

test('metrics :: quota and rate refusals are counted by reason', async () => {
  const { server, services } = await setup()
  const account = await services.admin.createAccount({ monthlyQuota: 1_000, rate: '1/minute' })
  const { key } = await services.admin.createKey(account.userId, 'metrics-rate')
  const before = await scrape(server.url)
  await request(server.url, key, 'get_tag_categories')
  const refused = await request(server.url, key, 'get_tag_categories')
  assert.is(refused.body.error.code, 'rate_limited')
  const after = await scrape(server.url)
  const series = 'api_access_refusals_total{operation="get_tag_categories",reason="rate_limited"}'
  assert.is(value(after, series) - value(before, series), 1)
  assert.not.ok(after.includes(key))
})

test('metrics :: the served snapshot, its age and the last build', async () => {
  const { server, snapshotDir, snapshotsDir } = await setup()
  const manifest = JSON.parse(fs.readFileSync(path.join(snapshotDir, 'manifest.json'), 'utf8'))
  fs.writeFileSync(
    path.join(snapshotsDir, 'last-build.json'),
    JSON.stringify({ outcome: 'failed', finished_at: '2026-11-20T00:20:00.000Z', duration_ms: 61_000, warnings: ['no raw day folder for 2026-11-19', 'prune_raw: EACCES'] }),
  )
  const text = await scrape(server.url)
  assert.is(value(text, `snapshot_info{snapshot_id="${manifest.snapshot_id}",snapshot_date="${manifest.build_date}"}`), 1)
  const age = value(text, 'snapshot_age_seconds')
  const expected = (Date.now() - Date.parse(manifest.built_at)) / 1000
  assert.ok(Math.abs(age - expected) < 60, `age ${age}, expected about ${expected}`)
  assert.is(value(text, 'pipeline_last_build_success'), 0)
  assert.is(value(text, 'pipeline_last_build_timestamp_seconds'), Date.parse('2026-11-20T00:20:00.000Z') / 1000)
  assert.is(value(text, 'pipeline_last_build_duration_seconds'), 61)
  assert.is(value(text, 'pipeline_last_build_warnings'), 2)
  fs.rmSync(path.join(snapshotsDir, 'last-build.json'))
})

test('metrics :: METRICS=0 turns them off; METRICS_PORT serves them on their own listener only', async () => {
  const { startAnother, config } = await setup()
  const off = await startAnother({ metricsAt: { ...config.metricsAt, mode: 'off' } })
  try {
    assert.is((await fetch(`${off.url}metrics`)).status, 404)
  } finally {
    await off.close()
  }
  const port = await freePort()
  const apart = await startAnother({ metricsAt: { mode: 'listener', host: '127.0.0.1', port } })
  try {
    assert.is((await fetch(`${apart.url}metrics`)).status, 404)
    const text = await scrape(`http://127.0.0.1:${port}/`)
    assert.match(text, /# TYPE api_requests_total counter/)
  } finally {
    await apart.close()
  }
})

test('metrics :: the environment settings', async () => {
  const { serverConfigFromEnv } = await import('../server/config.ts')
  assert.equal(serverConfigFromEnv({}).metricsAt, { mode: 'app', host: '127.0.0.1', port: 9464 })
  assert.is(serverConfigFromEnv({ METRICS: '0' }).metricsAt.mode, 'off')
  assert.equal(serverConfigFromEnv({ METRICS_PORT: '9100', METRICS_HOST: '10.0.0.2' }).metricsAt, {
    mode: 'listener',
    host: '10.0.0.2',
    port: 9100,
  })
})

test.run()
