import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createApp } from '../server/app.ts'
import type { ApiError } from '../server/errors.ts'
import { resolveAccount } from '../server/params/account.ts'
import { rateLimitBucket } from '../server/operations/define.ts'
import { operations } from '../server/operations/index.ts'
import { failingOperation, request, setup } from './_setup.ts'
import { tempDir } from './_fixtures.ts'

const OpenApi = suite('openapi')

OpenApi('document :: OpenAPI 3.1, version 1.0.0, the spec’s groups as tags', async () => {
  const { get } = await setup()
  const { body, headers } = await get('/openapi.json', {}, { key: null })
  assert.is(body.openapi, '3.1.0')
  assert.is(body.info.version, '1.0.0')
  assert.equal(
    body.tags.map((t: { name: string }) => t.name),
    ['Scores', 'Accounts', 'Followers', 'Mentions', 'Lists', 'History', 'Reference'],
  )
  assert.match(headers.get('content-type') ?? '', 'application/json')
})

OpenApi('document :: the three ways to send a key are security schemes', async () => {
  const { body } = await (await setup()).get('/openapi.json', {}, { key: null })
  const schemes = body.components.securitySchemes
  assert.equal(schemes.ApiKeyHeader, { ...schemes.ApiKeyHeader, type: 'apiKey', in: 'header', name: 'X-API-Key' })
  assert.equal(schemes.BearerAuth, { ...schemes.BearerAuth, type: 'http', scheme: 'bearer' })
  assert.equal(schemes.ApiKeyQuery, { ...schemes.ApiKeyQuery, type: 'apiKey', in: 'query', name: 'api_key' })
  assert.equal(body.security, [{ ApiKeyHeader: [] }, { BearerAuth: [] }, { ApiKeyQuery: [] }])
})

OpenApi('document :: every registered operation has a GET path with the error body and page defaults', async () => {
  const { body } = await (await setup()).get('/openapi.json', {}, { key: null })
  for (const operation of operations) {
    const op = body.paths[`/api/v1/${operation.name}`]?.get
    assert.ok(op, operation.name)
    assert.ok(op.tags.length > 0)
    assert.equal(op.responses['200'].content['application/json'].schema.anyOf[1], { $ref: '#/components/schemas/ErrorBody' })
    for (const status of ['400', '401', '403', '404', '405', '429', '500']) assert.ok(op.responses[status], `${operation.name} ${status}`)
    const size = op.parameters.find((p: { name: string }) => p.name === 'size')
    if (size) assert.ok(size.schema.default >= 1 && size.schema.maximum >= size.schema.default)
  }
})

const Health = suite('healthz')

Health('healthz :: reports the snapshot being served and its load time', async () => {
  const env = await setup()
  const manifest = JSON.parse(fs.readFileSync(path.join(env.snapshotDir, 'manifest.json'), 'utf8'))
  const { body } = await env.get('/healthz', {}, { key: null })
  assert.is(body.ready, true)
  assert.is(body.snapshot_id, manifest.snapshot_id)
  assert.is(body.snapshot_date, env.today)
  assert.type(body.load_ms, 'number')
  assert.is(new Date(body.loaded_at).toISOString(), body.loaded_at)
  for (const field of ['rss_bytes', 'heap_used_bytes', 'array_buffers_bytes']) assert.ok(body[field] > 0, field)
})

Health('start :: a port in use fails the start, naming the port (the server never moves to another one)', async () => {
  const env = await setup()
  const port = Number(new URL(env.server.url).port)
  const refused = await env.startAnother({ port }).then(
    async (another) => {
      await another.close()
      return null
    },
    (error: Error) => error,
  )
  assert.ok(refused, 'a second server started on a port in use')
  assert.match(refused.message, `tried ${port}`)
  // the metrics listener's port in use: the API's listener, opened first, is closed again
  const free = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = probe.address() as net.AddressInfo
      probe.close(() => resolve(p))
    })
  })
  const metricsAt = { mode: 'listener' as const, host: '127.0.0.1', port }
  const failed = await env.startAnother({ port: free, metricsAt }).then(() => null, (error: Error) => error)
  assert.match(failed?.message ?? 'started', `tried ${port}`)
  const reached = await fetch(`http://127.0.0.1:${free}/healthz`).then(() => true, () => false)
  assert.not.ok(reached, 'the API listener of a failed start still answers')
})

const Pipeline = suite('request pipeline')

Pipeline('headers :: every API response names the snapshot and carries the admission headers', async () => {
  const env = await setup()
  const res = await env.get('get_categories')
  const manifest = JSON.parse(fs.readFileSync(path.join(env.snapshotDir, 'manifest.json'), 'utf8'))
  assert.is(res.headers.get('x-snapshot-id'), manifest.snapshot_id)
  assert.is(res.headers.get('x-snapshot-date'), env.today)
  assert.ok(res.headers.get('x-request-id'))
  assert.match(res.headers.get('ratelimit-policy') ?? '', '"api-get-categories"')
})

Pipeline('ascii :: bodies are ASCII JSON: characters outside ASCII come as escapes and parse back unchanged', async () => {
  const env = await setup()
  const [account] = await env.query<{ id: string; name: string; description: string }>(`
    SELECT platform_id::VARCHAR AS id, name, description FROM accounts
    WHERE regexp_matches(name, '[^\\x00-\\x7f]') ORDER BY platform_id LIMIT 1`)
  assert.ok(account, 'the tiny data has a name outside ASCII')
  const res = await fetch(`${env.server.url}api/v1/get_platform_info?platform_id=${account.id}`, { headers: { 'x-api-key': env.key } })
  const bytes = Buffer.from(await res.arrayBuffer())
  assert.ok(bytes.every((byte) => byte < 0x80))
  assert.match(bytes.toString(), /\\u[0-9a-f]{4}/)
  const body = JSON.parse(bytes.toString())
  assert.is(body.name, account.name)
  assert.is(body.description, account.description ?? '')
})

Pipeline('too large :: a URL over 16 KB, refused by the HTTP parser, still gets the spec error body', async () => {
  const env = await setup()
  const ids = Array.from({ length: 2000 }, (_, i) => String(10_000_000_000 + i)).join(',')
  const res = await fetch(`${env.server.url}api/v1/bulk_scores_check?ids=${ids}`, { headers: { 'x-api-key': env.key } })
  assert.is(res.status, 200)
  const body = (await res.json()) as { success: boolean; message: string; error: { code: string } }
  assert.is(body.success, false)
  assert.is(body.error.code, 'invalid_params')
  assert.match(body.message, 'Request too large')
})

Pipeline('malformed URL :: a path that is not valid percent-encoding gets the spec error body (invalid_params; 400 with real statuses)', async () => {
  const env = await setup()
  const real = await env.startAnother({ realStatus: true })
  try {
    for (const [server, status] of [[env.server, 200], [real, 400]] as const) {
      for (const pathname of ['api/v1/get_categories%zz', 'api/v1/%', 'healthz%']) {
        const res = await fetch(`${server.url}${pathname}`, { headers: { 'x-api-key': env.key } })
        assert.is(res.status, status, pathname)
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/)
        const body = (await res.json()) as { success: boolean; message: string; error: { code: string } }
        assert.equal([body.success, body.error.code], [false, 'invalid_params'], pathname)
        assert.match(body.message, 'Malformed URL')
      }
    }
  } finally {
    await real.close()
  }
})

Pipeline('buckets :: one rate-limit bucket per operation, named api-<operation>', () => {
  assert.is(rateLimitBucket('get_alpha'), 'api-get-alpha')
  assert.is(rateLimitBucket('get_smart_follows'), 'api-get-smart-follows')
  assert.is(rateLimitBucket('friendshipHistory/followed'), 'api-friendship-history-followed')
})

Pipeline('auth :: the key works as X-API-Key, Bearer and api_key query parameter', async () => {
  const env = await setup()
  for (const via of ['header', 'bearer', 'query'] as const) {
    const res = await env.get('get_categories', {}, { via })
    assert.is(res.body.success, true, via)
  }
})

Pipeline('auth :: missing and invalid keys are errors with HTTP 200 in compatibility mode', async () => {
  const env = await setup()
  const missing = await env.get('get_categories', {}, { key: null })
  assert.is(missing.status, 200)
  assert.is(missing.body.success, false)
  assert.is(missing.body.error.code, 'api_key_missing')
  const invalid = await env.get('get_categories', {}, { key: 'ask_not_a_real_key_000000' })
  assert.is(invalid.body.error.code, 'api_key_invalid')
  assert.is(invalid.body.message, invalid.body.error.message)
  assert.match(invalid.body.error.docs_url, /^https?:\/\/.+#api_key_invalid$/)
})

Pipeline('methods :: non-GET is method_not_allowed (HTTP 200, no Allow header, in compatibility mode)', async () => {
  const env = await setup()
  for (const method of ['POST', 'PUT', 'DELETE']) {
    const res = await env.get('get_followers', {}, { method })
    assert.is(res.status, 200)
    assert.is(res.body.error.code, 'method_not_allowed')
    assert.is(res.headers.get('allow'), null)
  }
})

Pipeline('unknown paths :: 404 naming the path only, never echoing the query (which may carry a key)', async () => {
  const env = await setup()
  const res = await env.get('no_such_operation', { username: 'x' }, { via: 'query' })
  assert.is(res.status, 404)
  assert.is(res.body.success, false)
  assert.match(res.body.message, '/api/v1/no_such_operation')
  assert.not.match(JSON.stringify(res.body), 'ask_')
  assert.not.match(JSON.stringify(res.body), 'username')
})

Pipeline('real statuses :: API_REAL_STATUS=1 maps codes to 405 with Allow: GET, 401, 404, 400, 500', async () => {
  const env = await setup()
  const real = await env.startAnother({ realStatus: true })
  try {
    const post = await request(real.url, env.key, 'get_categories', {}, { method: 'POST' })
    assert.is(post.status, 405)
    assert.is(post.headers.get('allow'), 'GET')
    assert.is((await request(real.url, env.key, 'get_categories', {}, { key: null })).status, 401)
    assert.is((await request(real.url, env.key, 'get_followers', { username: 'no_such_account_zz' })).status, 404)
    assert.is((await request(real.url, env.key, 'get_followers', {})).status, 400)
    const quirk = await request(real.url, env.key, 'get_followers', { username: 'no_such_account_zz', tag_id: 'x' })
    assert.ok([404, 500].includes(quirk.status))
    assert.is((await request(real.url, env.key, 'get_categories')).status, 200)
  } finally {
    await real.close()
  }
})

Pipeline('cache :: a query is stored on its first miss, then served from the cache, whatever the credential and the parameter order', async () => {
  const env = await setup()
  const params = { size: 3, page: 2, probe: `core-${process.pid}-${Date.now()}` }
  const first = await env.get('get_categories', params)
  assert.is(first.headers.get('x-cache'), 'MISS')
  const second = await env.get('get_categories', params, { via: 'bearer' })
  assert.is(second.headers.get('x-cache'), 'HIT', 'another credential: the same entry')
  const reordered = { probe: params.probe, page: params.page, size: params.size }
  const third = await env.get('get_categories', reordered, { via: 'query' })
  assert.is(third.headers.get('x-cache'), 'HIT', 'parameters in another order, the key in the query: the same entry')
  assert.equal(third.body, first.body)
  assert.is(third.headers.get('content-type'), first.headers.get('content-type'))
})

Pipeline('cache :: a repeated parameter in another order is another query (the first value is the one read)', async () => {
  const env = await setup()
  const [a, b] = (await env.query<{ username: string }>(`select username from accounts where is_tracked order by account_idx limit 2`)).map((r) => r.username)
  const probe = `repeat-${process.pid}-${Date.now()}`
  const query = (first: string, second: string) => `username=${first}&username=${second}&probe=${probe}`
  const one = await env.get(`/api/v1/get_platform_score?${query(a, b)}`)
  const other = await env.get(`/api/v1/get_platform_score?${query(b, a)}`)
  assert.equal([one.headers.get('x-cache'), other.headers.get('x-cache')], ['MISS', 'MISS'])
  assert.equal([one.body.username, other.body.username], [a, b])
  const again = await env.get(`/api/v1/get_platform_score?probe=${probe}&username=${b}&username=${a}`)
  assert.is(again.headers.get('x-cache'), 'HIT', 'other names around it: the same query')
  assert.is(again.body.username, b)
})

Pipeline('cache :: limits is never cached and counts every call', async () => {
  const env = await setup()
  const first = await env.get('limits')
  const second = await env.get('limits')
  assert.is(second.headers.get('x-cache'), null)
  assert.is(second.body.rates[0].used, first.body.rates[0].used + 1)
})

Pipeline('errors :: an unexpected exception is server_error "Unexpected error…" without internals', async () => {
  const env = await setup()
  const failing = failingOperation('failing', new TypeError('secret internal detail'))
  const app = createApp({ ...env.config, snapshots: env.server.snapshots, operations: [failing] })
  const res = await app.request('/api/v1/failing')
  const body = (await res.json()) as { message: string; error: { code: string } }
  assert.is(res.status, 200)
  assert.is(body.error.code, 'server_error')
  assert.match(body.message, /^Unexpected error/)
  assert.not.match(JSON.stringify(body), 'secret internal detail')
  assert.match(body.message, res.headers.get('x-request-id')!)
})

const Accounts = suite('account resolution')

Accounts('reuse :: a resolution is reused for the same query only where both modes agree', async () => {
  const env = await setup()
  const snapshot = env.server.snapshots.current
  const [{ username, platform_id }] = await env.query<{ username: string; platform_id: string }>(
    `SELECT username, platform_id::VARCHAR AS platform_id FROM accounts WHERE is_tracked ORDER BY account_idx LIMIT 1`,
  )
  const code = (run: () => unknown) => {
    try {
      run()
      return 'ok'
    } catch (error) {
      return (error as ApiError).code
    }
  }
  // an id that resolves nothing: `fallback` goes on to the username, `precedence` does not
  const unknownId = new URLSearchParams({ platform_id: '1', username })
  const fallback = resolveAccount(snapshot, unknownId, 'fallback')
  assert.is(code(() => resolveAccount(snapshot, unknownId, 'precedence')), 'account_not_found')
  assert.is(resolveAccount(snapshot, unknownId, 'fallback'), fallback)
  // a `precedence` success is the `fallback` answer too (what the lookup recorder asks after a handler)
  const byId = new URLSearchParams({ platform_id, username: 'someone_else' })
  const idx = resolveAccount(snapshot, byId, 'precedence')
  assert.is(resolveAccount(snapshot, byId, 'fallback'), idx)
  assert.is(snapshot.accounts.platformId.at(idx), platform_id)
})

const Reload = suite('snapshot reload')

/** A snapshots folder of copies of `snapshotDir` (`copy(id)`, each its own snapshot_id) and its `current` pointer. */
function snapshotsFolder(snapshotDir: string, name: string) {
  const dir = tempDir(name)
  const copy = (id: string) => {
    const target = path.join(dir, id)
    fs.cpSync(snapshotDir, target, { recursive: true })
    const manifestPath = path.join(target, 'manifest.json')
    fs.writeFileSync(manifestPath, JSON.stringify({ ...JSON.parse(fs.readFileSync(manifestPath, 'utf8')), snapshot_id: id }))
    return target
  }
  const point = (target: string) => {
    fs.symlinkSync(target, path.join(dir, 'current.tmp'))
    fs.renameSync(path.join(dir, 'current.tmp'), path.join(dir, 'current'))
  }
  return { dir, copy, point }
}

Reload('reload :: a new current snapshot is loaded, then switched in; a broken one is logged and the old one keeps serving', async () => {
  const env = await setup()
  const { dir, copy, point } = snapshotsFolder(env.snapshotDir, 'api-reload')
  point(copy(`${env.today}_first`))
  const server = await env.startAnother({ snapshotsDir: dir })
  try {
    const health = async () => (await request(server.url, env.key, '/healthz')).body.snapshot_id
    assert.is(await health(), `${env.today}_first`)
    // a body cached from the first snapshot
    for (const expected of ['MISS', 'HIT']) {
      const cached = await request(server.url, env.key, 'get_categories')
      assert.equal([cached.headers.get('x-cache'), cached.headers.get('x-snapshot-id')], [expected, `${env.today}_first`])
    }
    point(copy(`${env.today}_second`))
    assert.is(await server.snapshots.refresh(), true)
    assert.is(await health(), `${env.today}_second`)
    // a new snapshot never answers from bodies cached for the old one
    for (const expected of ['MISS', 'HIT']) {
      const res = await request(server.url, env.key, 'get_categories')
      assert.equal([res.headers.get('x-cache'), res.headers.get('x-snapshot-id')], [expected, `${env.today}_second`])
    }
    const broken = copy(`${env.today}_broken`)
    fs.rmSync(path.join(broken, 'serving', 'accounts.platform_score.bin'))
    point(broken)
    assert.is(await server.snapshots.refresh(), false)
    assert.is(await health(), `${env.today}_second`)
    assert.is((await request(server.url, env.key, 'get_categories')).body.success, true)
  } finally {
    await server.close()
  }
})

Reload('reload :: requests are answered by the snapshot serving while a new one loads', async () => {
  const env = await setup()
  const { dir, copy, point } = snapshotsFolder(env.snapshotDir, 'api-reload-answering')
  point(copy(`${env.today}_first`))
  const server = await env.startAnother({ snapshotsDir: dir })
  try {
    point(copy(`${env.today}_second`))
    let loaded = false
    const loading = server.snapshots.refresh().then((switched) => ((loaded = true), switched))
    const during = await request(server.url, env.key, '/healthz')
    const answeredWhileLoading = !loaded
    assert.is(await loading, true)
    assert.equal([during.body.snapshot_id, answeredWhileLoading], [`${env.today}_first`, true])
    assert.is((await request(server.url, env.key, '/healthz')).body.snapshot_id, `${env.today}_second`)
  } finally {
    await server.close()
  }
})

Reload('reload :: a short on-disk column fails the load; a folder that failed is tried again once the pointer has moved away and back', async () => {
  const env = await setup()
  const { dir, copy, point } = snapshotsFolder(env.snapshotDir, 'api-reload-retry')
  const good = copy(`${env.today}_good`)
  point(good)
  const server = await env.startAnother({ snapshotsDir: dir })
  try {
    const health = async () => (await request(server.url, env.key, '/healthz')).body.snapshot_id
    const later = copy(`${env.today}_later`)
    // a column read per request from disk (the score's explanations), cut short as by an interrupted copy
    const column = path.join(later, 'serving', 'score_explanations.components.bin')
    fs.copyFileSync(column, `${column}.whole`)
    fs.truncateSync(column, 8)
    point(later)
    assert.is(await server.snapshots.refresh(), false)
    assert.is(await health(), `${env.today}_good`)
    // repaired in place: not tried again while the pointer has not moved
    fs.renameSync(`${column}.whole`, column)
    assert.is(await server.snapshots.refresh(), false)
    point(good)
    assert.is(await server.snapshots.refresh(), false)
    point(later)
    assert.is(await server.snapshots.refresh(), true)
    assert.is(await health(), `${env.today}_later`)
  } finally {
    await server.close()
  }
})

OpenApi.run()
Health.run()
Pipeline.run()
Accounts.run()
Reload.run()
