/**
 * Access control through HTTP, on the real server (embedded store): rate and quota refusals with their headers and
 * statuses, key errors through every method, what the response cache stores and counts, exact counting under 1,000
 * concurrent requests, and a server's log lines without keys. The same rules below the HTTP layer, on both stores:
 * access.test.ts.
 */
import http from 'node:http'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createApp } from '../server/app.ts'
import { cacheKey } from '../server/access/cache-key.ts'
import { outcomeOf, stderrOf } from './_capture.ts'
import { failingOperation, request, setup, type GetOptions } from './_setup.ts'

const METHODS = ['header', 'bearer', 'query'] as const

async function account(plan: { monthlyQuota?: number; rate?: string }, names = ['main']) {
  const { services } = await setup()
  const { userId } = await services.admin.createAccount(plan)
  const keys: string[] = []
  for (const name of names) keys.push((await services.admin.createKey(userId, name)).key)
  return { userId, keys, key: keys[0] }
}

const Limits = suite('access over HTTP: limits')

Limits('rate :: over the per-minute total, rate_limited with Retry-After (HTTP 200 in compatibility mode); another bucket is unaffected', async () => {
  const env = await setup()
  const { key } = await account({ rate: '2/minute' })
  const get = (operation: string) => env.get(operation, {}, { key })
  assert.is((await get('get_categories')).body.success, true)
  assert.is((await get('get_categories')).body.success, true)
  const limited = await get('get_categories')
  assert.is(limited.status, 200)
  assert.is(limited.body.success, false)
  assert.is(limited.body.error.code, 'rate_limited')
  const retryAfter = Number(limited.headers.get('retry-after'))
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, String(retryAfter))
  assert.match(limited.headers.get('ratelimit') ?? '', /"api-get-categories";r=0;t=\d+$/)
  const other = await get('get_tags_list')
  assert.is(other.body.success, true, 'api-get-tags-list has its own counter')
  assert.match(other.headers.get('ratelimit') ?? '', /"api-get-tags-list";r=1;t=60$/)
})

Limits('rate :: with real statuses, rate_limited is HTTP 429 with Retry-After; the window resets', async () => {
  const env = await setup()
  const real = await env.startAnother({ realStatus: true })
  try {
    const { key } = await account({ rate: '1/second' })
    const get = () => request(real.url, key, 'get_tag_categories')
    assert.is((await get()).status, 200)
    const limited = await get()
    assert.is(limited.status, 429)
    assert.is(limited.body.error.code, 'rate_limited')
    assert.is(limited.headers.get('retry-after'), '1')
    await new Promise((resolve) => setTimeout(resolve, 1100))
    assert.is((await get()).status, 200, 'a new window')
  } finally {
    await real.close()
  }
})

Limits('quota :: once used >= total, quota_exceeded (429 with real statuses) with Retry-After until reset_time_at', async () => {
  const env = await setup()
  const real = await env.startAnother({ realStatus: true })
  try {
    const { userId, keys } = await account({ monthlyQuota: 2 }, ['a', 'b'])
    assert.is((await request(real.url, keys[0], 'limits')).status, 200)
    assert.is((await request(real.url, keys[1], 'get_categories')).status, 200)
    const refused = await request(real.url, keys[0], 'get_tags_list')
    assert.is(refused.status, 429)
    assert.is(refused.body.error.code, 'quota_exceeded')
    const resetAt = (await env.services.admin.usage(userId)).quota.resetAt!.getTime()
    const retryAfter = Number(refused.headers.get('retry-after'))
    assert.ok(Math.abs(retryAfter - (resetAt - Date.now()) / 1000) < 5, `${retryAfter} s until the reset`)
    assert.is((await request(real.url, keys[1], 'limits')).body.error.code, 'quota_exceeded', 'limits is refused too')
    assert.is((await env.services.admin.usage(userId)).quota.used, 2, 'refused calls do not count')
  } finally {
    await real.close()
  }
})

Limits('quota :: quota 1 and 1,000 concurrent requests over HTTP: exactly one answer', async () => {
  const env = await setup()
  const { userId, key } = await account({ monthlyQuota: 1, rate: '100000/minute' })
  const agent = new http.Agent({ keepAlive: true, maxSockets: 100 })
  const codes = await Promise.all(
    Array.from({ length: 1000 }, (_, i) => {
      const via = METHODS[i % 3]
      const url = new URL(`${env.server.url}api/v1/get_categories`)
      const headers: Record<string, string> = {}
      if (via === 'header') headers['x-api-key'] = key
      if (via === 'bearer') headers.authorization = `Bearer ${key}`
      if (via === 'query') url.searchParams.set('api_key', key)
      return outcomeOf(agent, url, headers)
    }),
  )
  agent.destroy()
  assert.is(codes.filter((code) => code === 'ok').length, 1)
  assert.is(codes.filter((code) => code === 'quota_exceeded').length, 999)
  assert.is((await env.services.admin.usage(userId)).quota.used, 1)
})

const Keys = suite('access over HTTP: keys')

Keys('auth :: missing, invalid, revoked and deactivated keys through all three methods (401/403 with real statuses), counting nothing', async () => {
  const env = await setup()
  const real = await env.startAnother({ realStatus: true })
  try {
    const revoked = await account({}, ['old', 'new'])
    await env.services.admin.revokeKey(revoked.userId, 'old')
    const deactivated = await account({})
    await env.services.admin.setApiAccess(deactivated.userId, false)
    const cases: [string | null, string, number][] = [
      ['ask_' + 'Z'.repeat(43), 'api_key_invalid', 401],
      ['not-a-key', 'api_key_invalid', 401],
      [revoked.keys[0], 'api_key_revoked', 401],
      [deactivated.key, 'api_access_deactivated', 403],
    ]
    for (const via of METHODS) {
      for (const [key, code, status] of cases) {
        const options: GetOptions = { key, via }
        const compat = await env.get('get_categories', {}, options)
        assert.equal([compat.status, compat.body.success, compat.body.error.code], [200, false, code], `${via} ${code}`)
        assert.is(compat.body.message, compat.body.error.message)
        assert.not.ok(JSON.stringify(compat.body).includes(key!), 'the body never repeats the key')
        const strict = await request(real.url, env.key, 'get_categories', {}, options)
        assert.equal([strict.status, strict.body.error.code], [status, code], `${via} ${code} real status`)
      }
      assert.is((await env.get('get_categories', {}, { key: revoked.keys[1], via })).body.success, true, 'the other key of the account works')
    }
    const missing = await request(real.url, env.key, 'get_categories', {}, { key: null })
    assert.equal([missing.status, missing.body.error.code], [401, 'api_key_missing'])
    assert.is((await env.services.admin.usage(revoked.userId)).quota.used, 3, 'only the live key’s calls count')
    assert.is((await env.services.admin.usage(deactivated.userId)).quota.used, 0)
    await env.services.admin.setApiAccess(deactivated.userId, true)
    assert.is((await env.get('get_categories', {}, { key: deactivated.key })).body.success, true, 'reactivated')
  } finally {
    await real.close()
  }
})

Keys('auth :: two Authorization fields (raw, as a proxy may add them) answer api_key_invalid, not api_key_missing', async () => {
  const env = await setup()
  const body = await new Promise<string>((resolve, reject) => {
    // fetch joins repeated fields itself: the request is written as it goes on the wire
    const req = http.request(`${env.server.url}api/v1/get_categories`, { headers: ['Host', new URL(env.server.url).host, 'Authorization', `Bearer ${env.key}`, 'Authorization', `Bearer ${env.key}`] }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve(text))
    })
    req.on('error', reject)
    req.end()
  })
  assert.is(JSON.parse(body).error.code, 'api_key_invalid')
})

const Cache = suite('access over HTTP: response cache')

Cache('cache :: a hit counts against the quota and the rate like any call', async () => {
  const env = await setup()
  const { userId, key } = await account({ monthlyQuota: 5, rate: '100/minute' })
  // a query no other test asks (unknown parameters are ignored by the handler, but are part of the cache key)
  const query = { page: 1, _test: `hit-counts-${Date.now()}` }
  const seen: string[] = []
  for (let i = 0; i < 4; i++) {
    const res = await env.get('get_tags_list', query, { key })
    assert.is(res.body.success, true)
    seen.push(res.headers.get('x-cache')!)
    assert.match(res.headers.get('ratelimit') ?? '', new RegExp(`^"monthly";r=${4 - i};t=\\d+, "api-get-tags-list";r=${99 - i};`))
  }
  // stored on the first miss, then served from the cache
  assert.equal([seen[0], seen[2], seen[3]], ['MISS', 'HIT', 'HIT'], seen.join(' '))
  assert.is((await env.services.admin.usage(userId)).quota.used, 4)
  assert.is((await env.get('get_tags_list', query, { key })).headers.get('x-cache'), 'HIT')
  const refused = await env.get('get_tags_list', query, { key })
  assert.is(refused.body.error.code, 'quota_exceeded', 'a cached answer is not served past the quota')
  assert.is((await env.services.admin.usage(userId)).quota.used, 5)
})

Cache('cache :: error bodies are never stored or served from the cache', async () => {
  const env = await setup()
  const params = { username: 'no_such_account_cached_zz', size: 3 }
  for (let i = 0; i < 4; i++) {
    const res = await env.get('get_followers', params)
    assert.is(res.body.error.code, 'account_not_found')
    assert.not.equal(res.headers.get('x-cache'), 'HIT')
    // nor do they say anything of the cache
    assert.is(res.headers.get('x-cache'), null)
  }
  const search = `?${new URLSearchParams({ username: params.username, size: String(params.size) })}`
  const key = cacheKey('get_followers', search, env.server.snapshots.current.id)
  assert.is(await env.services.cache.get(key), null, 'nothing stored under the query’s key')
  const invalid = { _test: 'no-account-given' } // neither username nor platform_id
  for (let i = 0; i < 3; i++) assert.is((await env.get('get_followers', invalid)).body.error.code, 'invalid_params')
  const invalidKey = cacheKey('get_followers', `?${new URLSearchParams(invalid)}`, env.server.snapshots.current.id)
  assert.is(await env.services.cache.get(invalidKey), null)
})

const Logs = suite('access over HTTP: logs')

Logs('logs :: a request that fails unexpectedly is logged with its URL, the key redacted in every form', async () => {
  const env = await setup()
  const failing = failingOperation('failing_logged', new TypeError('boom'))
  const app = createApp({ ...env.config, snapshots: env.server.snapshots, access: env.services.access, operations: [failing] })
  const encodedKey = env.key.replace('_', '%5F')
  const logged = await stderrOf(async () => {
    for (const query of [`api_key=${env.key}`, `page=2&api%5Fkey=${env.key}`, `%61pi_key=${encodedKey}&page=1`]) {
      const res = await app.request(`/api/v1/failing_logged?${query}`)
      assert.is(((await res.json()) as { error: { code: string } }).error.code, 'server_error', query)
    }
  })
  // (anything else on stderr meanwhile, not a log line, is left out)
  const lines = logged.trim().split('\n').filter((line) => line.startsWith('{"')).map((line) => JSON.parse(line))
  const errors = lines.filter((line) => line.event === 'request.unexpected_error')
  assert.is(errors.length, 3, logged)
  for (const line of errors) assert.match(line.url, /^\/api\/v1\/failing_logged\?.*=\[redacted\]/)
  assert.not.ok(logged.includes(env.key), 'the raw key')
  assert.not.ok(logged.includes(env.key.slice(4)), 'the key’s random part')
})

Limits.run()
Keys.run()
Cache.run()
Logs.run()
