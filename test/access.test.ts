/**
 * Access control from the server's side of the interface: authentication, monthly quota, per-bucket rates, headers,
 * response cache and operator actions. One suite, run against the embedded store and against a real redis-server.
 */
import { spawn } from 'node:child_process'
import http from 'node:http'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import Redis from 'ioredis'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { serverConfigFromEnv } from '../server/config.ts'
import { ApiError } from '../server/errors.ts'
import {
  AccessAdminError,
  createServices,
  parseRate,
  rateUnit,
  QUOTA_WINDOW_MS,
  readApiKey,
  storageConfigFromEnv,
} from '../server/access/index.ts'
import type { AccessServices, Admission, Credentials, StorageConfig } from '../server/access/index.ts'
import { openEmbeddedBackend } from '../server/access/stores/embedded.ts'
import { openRedisBackend } from '../server/access/stores/redis.ts'
import { tempDir as fixtureTempDir } from './_fixtures.ts'
import { outcomeOf } from './_capture.ts'
import { startRedis, type RedisServer } from './_redis.ts'
import { setup } from './_setup.ts'

type Method = 'header' | 'bearer' | 'query'
const METHODS: Method[] = ['header', 'bearer', 'query']

function credentials(parts: Partial<Record<Method, string>>): Credentials {
  const headers = new Headers()
  if (parts.header !== undefined) headers.set('X-API-Key', parts.header)
  if (parts.bearer !== undefined) headers.set('Authorization', `Bearer ${parts.bearer}`)
  const query = new URLSearchParams(parts.query !== undefined ? { api_key: parts.query } : {})
  return { headers, query }
}

/** 'ok' or the error code, so a test states outcomes the way a client sees them. */
/** Runs `admit` (which answers or throws at once with the embedded store, or returns a promise) to its outcome. */
async function outcome(admit: () => Promise<Admission>): Promise<string> {
  return Promise.resolve().then(admit).then(
    () => 'ok',
    (error) => {
      if (!(error instanceof ApiError)) throw error
      return error.code
    },
  )
}

async function refusal(admit: () => Promise<Admission>): Promise<ApiError> {
  const error = await Promise.resolve().then(admit).then(() => null, (error: unknown) => error)
  assert.instance(error, ApiError, 'expected the call to be refused')
  return error as ApiError
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const tempDir = (label: string) => fixtureTempDir(`access-${label}`)

interface Store {
  config(): StorageConfig
  /** Everything the store holds, as text, to search for secrets. */
  dump(): Promise<string>
  /** Moves the end of an account's monthly window to `resetAt` (epoch ms), in the store itself; services closed. */
  moveQuotaReset(userId: number, resetAt: number): Promise<void>
  stop(): Promise<void>
}

interface Context {
  store: Store
  services: AccessServices
  /** Every raw key issued by the suite, checked against the store at the end. */
  issued: string[]
}

/** A fresh account with one key per name; the keys are remembered for the final secrets check. */
async function account(ctx: Context, plan: { monthlyQuota?: number; rate?: string } = {}, names = ['main']) {
  const created = await ctx.services.admin.createAccount(plan)
  const keys: string[] = []
  for (const name of names) keys.push((await ctx.services.admin.createKey(created.userId, name)).key)
  ctx.issued.push(...keys)
  return { userId: created.userId, keys, key: keys[0] }
}

function storeSuite(name: string, openStore: () => Promise<Store>) {
  const test = suite<Context>(`access [${name}]`)

  test.before(async (ctx) => {
    ctx.store = await openStore()
    ctx.services = await createServices(ctx.store.config())
    ctx.issued = []
  })
  test.after(async (ctx) => {
    try {
      await ctx.services?.close()
    } finally {
      await ctx.store?.stop()
    }
  })

  test('keys :: a key is ask_ plus 256 random bits, returned once, stored only as its SHA-256 hash', async (ctx) => {
    const { userId, keys } = await account(ctx, {}, ['one', 'two'])
    for (const key of keys) assert.match(key, /^ask_[A-Za-z0-9_-]{43}$/)
    assert.is.not(keys[0], keys[1])
    const listed = await ctx.services.admin.listKeys(userId)
    assert.equal(listed.map((key) => key.fingerprint), keys.map((key) => sha256(key).slice(0, 12)))
    const stored = await ctx.store.dump()
    assert.ok(stored.includes(sha256(keys[0])), 'the hash is what is stored')
    for (const key of keys) assert.not.ok(stored.includes(key), 'the raw key is not stored')
  })

  test('auth :: X-API-Key, Bearer and api_key are equivalent', async (ctx) => {
    const { userId, key } = await account(ctx)
    for (const method of METHODS) {
      const admission = await ctx.services.access.admit(credentials({ [method]: key }), 'api-get-alpha')
      assert.is(admission.userId, userId, method)
    }
  })

  test('auth :: X-API-Key wins over Bearer, Bearer over api_key; empty values do not count', async (ctx) => {
    const { key } = await account(ctx)
    const wrong = 'ask_' + 'x'.repeat(43)
    const admit = (parts: Partial<Record<Method, string>>) => outcome(() => ctx.services.access.admit(credentials(parts), 'api-limits'))
    assert.is(await admit({ header: key, bearer: wrong, query: wrong }), 'ok')
    assert.is(await admit({ header: wrong, bearer: key, query: key }), 'api_key_invalid')
    assert.is(await admit({ bearer: key, query: wrong }), 'ok')
    assert.is(await admit({ bearer: wrong, query: key }), 'api_key_invalid')
    assert.is(await admit({ header: '', bearer: key }), 'ok')
    assert.is(await admit({ header: ' ', query: key }), 'ok')
    const basic = { headers: new Headers({ Authorization: `Basic ${key}` }), query: new URLSearchParams() }
    assert.is(await outcome(() => ctx.services.access.admit(basic, 'api-limits')), 'api_key_missing')
    const lowercase = { headers: new Headers({ authorization: `bearer ${key}` }), query: new URLSearchParams() }
    assert.is(await outcome(() => ctx.services.access.admit(lowercase, 'api-limits')), 'ok')
  })

  test('auth :: a key admitted a moment ago is refused at once after its revocation or its account’s deactivation', async (ctx) => {
    const { access, admin } = ctx.services
    const first = await account(ctx, {}, ['main'])
    const second = await account(ctx, {}, ['main'])
    for (const { key } of [first, second]) assert.is(await outcome(() => access.admit(credentials({ header: key }), 'api-get-alpha')), 'ok')
    await admin.revokeKey(first.userId, 'main')
    await admin.setApiAccess(second.userId, false)
    assert.is((await refusal(() => access.admit(credentials({ header: first.key }), 'api-get-alpha'))).code, 'api_key_revoked')
    assert.is((await refusal(() => access.admit(credentials({ header: second.key }), 'api-get-alpha'))).code, 'api_access_deactivated')
  })

  test('auth :: missing, invalid, revoked and deactivated keys through all three methods, counting nothing', async (ctx) => {
    const { access, admin } = ctx.services
    const revoked = await account(ctx, {}, ['old', 'new'])
    await admin.revokeKey(revoked.userId, 'old')
    const deactivated = await account(ctx)
    await admin.setApiAccess(deactivated.userId, false)
    const unknown = 'ask_' + 'A'.repeat(43)
    assert.is(await outcome(() => access.admit(credentials({}), 'api-get-alpha')), 'api_key_missing')
    for (const method of METHODS) {
      const cases: [string, string][] = [
        [unknown, 'api_key_invalid'],
        ['not-a-key', 'api_key_invalid'],
        [revoked.keys[0], 'api_key_revoked'],
        [revoked.keys[1], 'ok'],
        [deactivated.key, 'api_access_deactivated'],
      ]
      for (const [key, expected] of cases) {
        const admission = () => access.admit(credentials({ [method]: key }), 'api-get-alpha')
        if (expected === 'ok') {
          assert.is(await outcome(admission), 'ok', method)
          continue
        }
        const error = await refusal(admission)
        assert.is(error.code, expected, `${method} ${expected}`)
        assert.not.ok(error.message.includes(key), 'the message never repeats the key')
        assert.equal(error.headers, {}, 'no account, no rate-limit headers')
      }
    }
    assert.is((await admin.usage(revoked.userId)).quota.used, 3, 'only the three admitted calls count')
    assert.is((await admin.usage(deactivated.userId)).quota.used, 0)
    await admin.setApiAccess(deactivated.userId, true)
    assert.is(await outcome(() => access.admit(credentials({ header: deactivated.key }), 'api-get-alpha')), 'ok')
  })

  test('quota :: every admitted call counts once, shared by all keys, and `used` includes this call', async (ctx) => {
    const { userId, keys } = await account(ctx, { monthlyQuota: 50 }, ['a', 'b'])
    const started = Date.now()
    const resets: number[] = []
    const buckets = ['api-get-alpha', 'api-limits', 'api-get-smart-follows', 'api-get-alpha', 'api-limits']
    for (const [i, bucket] of buckets.entries()) {
      const admission = await ctx.services.access.admit(credentials({ header: keys[i % 2] }), bucket)
      assert.equal([admission.quota.total, admission.quota.used, admission.quota.remaining], [50, i + 1, 49 - i])
      resets.push(admission.quota.resetAtMs)
      const resetIn = admission.quota.resetAtMs - started
      assert.ok(resetIn > QUOTA_WINDOW_MS - 60_000 && resetIn <= QUOTA_WINDOW_MS + 1000, 'a 30-day window')
    }
    const usage = await ctx.services.admin.usage(userId)
    assert.equal([usage.quota.used, usage.quota.remaining], [5, 45])
    assert.is(usage.quota.resetAt?.getTime(), resets[0], 'the usage shows the same reset time')
    assert.is(new Set(resets).size, 1, 'one window, one reset time, to the millisecond')
  })

  test('quota :: quota 1 with 1,000 concurrent calls admits exactly one', async (ctx) => {
    const { userId, key } = await account(ctx, { monthlyQuota: 1 })
    const outcomes = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        outcome(() => ctx.services.access.admit(credentials({ [METHODS[i % 3]]: key }), 'api-get-alpha')),
      ),
    )
    assert.is(outcomes.filter((o) => o === 'ok').length, 1)
    assert.is(outcomes.filter((o) => o === 'quota_exceeded').length, 999)
    assert.is((await ctx.services.admin.usage(userId)).quota.used, 1)
  })

  test('quota :: blocked once used >= total, with Retry-After; blocked calls do not count; a new plan applies', async (ctx) => {
    const { userId, key } = await account(ctx, { monthlyQuota: 2 })
    const admit = () => ctx.services.access.admit(credentials({ header: key }), 'api-get-alpha')
    await admit()
    await admit()
    const error = await refusal(admit)
    assert.is(error.code, 'quota_exceeded')
    assert.ok(Number(error.headers['Retry-After']) > QUOTA_WINDOW_MS / 1000 - 60)
    assert.match(error.headers.ratelimit, /^"monthly";r=0;t=\d+, "api-get-alpha";r=\d+;t=\d+$/)
    assert.is(await outcome(admit), 'quota_exceeded')
    assert.is((await ctx.services.admin.usage(userId)).quota.used, 2)
    await ctx.services.admin.setPlan(userId, { monthlyQuota: 3 })
    assert.is((await admit()).quota.remaining, 0)
    assert.is(await outcome(admit), 'quota_exceeded')
  })

  test('quota :: the count returns to 0 at reset_time_at, and the next call opens a new 30-day window', async (ctx) => {
    const { userId, key } = await account(ctx, { monthlyQuota: 3 })
    const admit = () => ctx.services.access.admit(credentials({ header: key }), 'api-get-alpha')
    for (let i = 0; i < 3; i++) await admit()
    assert.is(await outcome(admit), 'quota_exceeded')
    await ctx.services.close()
    const resetAt = Date.now() + 2500 // time enough to reopen the store and check before it
    await ctx.store.moveQuotaReset(userId, resetAt)
    ctx.services = await createServices(ctx.store.config())
    const before = await ctx.services.admin.usage(userId)
    assert.equal([before.quota.used, before.quota.resetAt?.getTime()], [3, resetAt])
    assert.is(await outcome(admit), 'quota_exceeded', 'until the window ends')
    await sleep(resetAt - Date.now() + 50)
    assert.equal([(await ctx.services.admin.usage(userId)).quota.used, (await ctx.services.admin.usage(userId)).quota.resetAt], [0, null])
    const admission = await admit()
    assert.is(admission.quota.used, 1)
    assert.ok(admission.quota.resetAtMs - Date.now() > QUOTA_WINDOW_MS - 60_000, 'a new 30-day window')
  })

  test('rate :: over the total gives rate_limited + Retry-After, other buckets are unaffected, the window resets', async (ctx) => {
    const { userId, key } = await account(ctx, { rate: '3/second' })
    const admit = (bucket: string) => ctx.services.access.admit(credentials({ header: key }), bucket)
    const first = await admit('api-get-alpha')
    assert.equal(first.rate, { period: 'second', total: 3, remaining: 2, resetSeconds: 1 })
    await admit('api-get-alpha')
    await admit('api-get-alpha')
    const error = await refusal(() => admit('api-get-alpha'))
    assert.is(error.code, 'rate_limited')
    assert.is(error.headers['Retry-After'], '1')
    assert.match(error.headers.ratelimit, /"api-get-alpha";r=0;t=1$/)
    assert.is((await admit('api-get-smart-follows')).rate.remaining, 2, 'a separate bucket')
    assert.is((await ctx.services.admin.usage(userId)).quota.used, 4, 'the refused call did not count')
    await sleep(1100)
    assert.is((await admit('api-get-alpha')).rate.remaining, 2, 'a new window')
  })

  test('counters :: calls count exactly, refused ones in neither window, across the end of a rate window', async (ctx) => {
    const config = ctx.store.config()
    const backend = config.redisUrl ? await openRedisBackend(config.redisUrl) : await openEmbeddedBackend(tempDir('counters'), 2 ** 20)
    try {
      const count = async (rateTotal = 100) => {
        const counted = await backend.counters.count({ userId: 900_001, bucket: 'api-get-alpha', quotaTotal: 100, rateTotal, rateWindowMs: 400 })
        return [counted.outcome, counted.quotaUsed, counted.rateUsed]
      }
      assert.equal(await count(), ['admitted', 1, 1])
      assert.equal(await count(), ['admitted', 2, 2])
      assert.equal(await count(2), ['rate_limited', 2, 2], 'a refused call counts in neither window')
      await sleep(450)
      assert.equal(await count(), ['admitted', 3, 1], 'the next rate window')
      assert.equal(await count(), ['admitted', 4, 2])
    } finally {
      await backend.close()
    }
  })

  test('rate :: an unknown unit counts per minute', async (ctx) => {
    const { key } = await account(ctx, { rate: '2/fortnight' })
    const admission = await ctx.services.access.admit(credentials({ header: key }), 'api-limits')
    assert.equal([admission.rate.period, admission.rate.total, admission.rate.remaining], ['minute', 2, 1])
    assert.ok(admission.rate.resetSeconds > 58 && admission.rate.resetSeconds <= 60)
  })

  test('headers :: RateLimit-Policy and RateLimit describe the monthly quota and the bucket', async (ctx) => {
    const { key } = await account(ctx, { monthlyQuota: 10, rate: '5/hour' })
    const { headers } = await ctx.services.access.admit(credentials({ header: key }), 'api-friendship-history-followed')
    assert.is(headers['ratelimit-policy'], '"monthly";q=10;w=2592000, "api-friendship-history-followed";q=5;w=3600')
    assert.match(headers.ratelimit, /^"monthly";r=9;t=259\d{4}, "api-friendship-history-followed";r=4;t=3600$/)
  })

  test('cache :: a body is served until its TTL ends; keys are taken verbatim', async (ctx) => {
    const { cache } = ctx.services
    const keys = ['get_followers?username=a&page=1#s1', 'get_followers?username=a&page=2#s1', 'get_followers/username=a&page=1#s1', 'get_followers:username=a&page=1#s1']
    const text = async (key: string) => (await cache.get(`${name}|${key}`))?.toString() ?? null
    for (const [i, key] of keys.entries()) await cache.set(`${name}|${key}`, `{"body":${i}}`, i === 0 ? 1 : 60)
    for (const [i, key] of keys.entries()) assert.is(await text(key), `{"body":${i}}`)
    assert.is(await text('get_followers?username=b#s1'), null)
    await sleep(1100)
    assert.is(await text(keys[0]), null, 'expired')
    assert.is(await text(keys[1]), '{"body":1}')
  })

  test('admin :: unknown accounts and keys, duplicate names and bad plans give clear errors', async (ctx) => {
    const { admin } = ctx.services
    const { userId } = await account(ctx)
    const rejects = async (action: Promise<unknown>, message: RegExp) => {
      try {
        await action
      } catch (error) {
        assert.instance(error, AccessAdminError)
        assert.match((error as Error).message, message)
        return
      }
      assert.unreachable('expected an AccessAdminError')
    }
    await rejects(admin.getAccount(987654), /Unknown account: user_id 987654/)
    await rejects(admin.createKey(987654, 'x'), /Unknown account/)
    await rejects(admin.usage(987654), /Unknown account/)
    await rejects(admin.revokeKey(userId, 'nope'), /Unknown key: account \d+ has no key named "nope"/)
    await rejects(admin.createKey(userId, 'main'), /already has a key named "main"/)
    await rejects(admin.setPlan(userId, { rate: 'lots' }), /Invalid rate "lots"/)
    await rejects(admin.setPlan(userId, { monthlyQuota: -1 }), /Invalid monthly quota/)
    await rejects(admin.createAccount({ monthlyQuota: 1.5 }), /Invalid monthly quota/)
  })

  test('admin :: concurrent account creations get distinct user_ids', async (ctx) => {
    const created = await Promise.all(Array.from({ length: 20 }, () => ctx.services.admin.createAccount()))
    assert.is(new Set(created.map((account) => account.userId)).size, 20)
    const listed = (await ctx.services.admin.listAccounts()).map((account) => account.userId)
    for (const { userId } of created) assert.ok(listed.includes(userId))
  })

  test('admin :: two services on one store (a CLI beside a server) change one account and create accounts at once, losing nothing', async (ctx) => {
    const other = await createServices(ctx.store.config())
    try {
      const { userId } = await ctx.services.admin.createAccount()
      const admins = [ctx.services.admin, other.admin]
      const created = await Promise.all(Array.from({ length: 12 }, (_, i) => admins[i % 2].createKey(userId, `k${i}`)))
      ctx.issued.push(...created.map(({ key }) => key))
      const names = (await ctx.services.admin.listKeys(userId)).map((key) => key.name).sort()
      assert.equal(names, Array.from({ length: 12 }, (_, i) => `k${i}`).sort(), 'every key of both services is kept')
      await Promise.all([admins[0].revokeKey(userId, 'k0'), admins[1].setPlan(userId, { monthlyQuota: 77 }), admins[0].setApiAccess(userId, false)])
      const account = await other.admin.getAccount(userId)
      assert.equal([account.keys.find((key) => key.name === 'k0')?.revokedAt !== null, account.plan.monthlyQuota, account.apiAccess], [true, 77, false])
      const accounts = await Promise.all(Array.from({ length: 10 }, (_, i) => admins[i % 2].createAccount()))
      assert.is(new Set(accounts.map((a) => a.userId)).size, 10, 'distinct user_ids')
    } finally {
      await other.close()
    }
  })

  test('restart :: keys, plans and quota counts survive closing and reopening the store', async (ctx) => {
    const { userId, key } = await account(ctx, { monthlyQuota: 7, rate: '100/hour' })
    for (let i = 0; i < 4; i++) await ctx.services.access.admit(credentials({ header: key }), 'api-get-alpha')
    await ctx.services.close()
    ctx.services = await createServices(ctx.store.config())
    const admission = await ctx.services.access.admit(credentials({ query: key }), 'api-get-alpha')
    assert.equal([admission.quota.used, admission.quota.total, admission.rate.total], [5, 7, 100])
    assert.is((await ctx.services.admin.getAccount(userId)).keys.length, 1)
  })

  test('secrets :: no raw key issued by this suite appears anywhere in the store', async (ctx) => {
    const stored = await ctx.store.dump()
    assert.ok(ctx.issued.length >= 10)
    for (const key of ctx.issued) assert.not.ok(stored.includes(key))
    assert.not.ok(/ask_[A-Za-z0-9_-]{20,}/.test(stored))
  })

  return test
}

function embeddedStore(dataDir = tempDir('embedded')): Store {
  return {
    config: () => ({ driver: 'embedded', dataDir }),
    async dump() {
      const files = fs.readdirSync(dataDir, { recursive: true, encoding: 'utf8' })
      return files
        .map((file) => path.join(dataDir, file))
        .filter((file) => fs.statSync(file).isFile())
        .map((file) => `${file}\n${fs.readFileSync(file, 'utf8')}`)
        .join('\n')
    },
    async moveQuotaReset(userId, resetAt) {
      const file = path.join(dataDir, 'counters.json')
      const windows = JSON.parse(fs.readFileSync(file, 'utf8'))
      assert.ok(windows[`quota:${userId}`], 'the window is stored')
      windows[`quota:${userId}`].expiresAt = resetAt
      fs.writeFileSync(file, JSON.stringify(windows))
    },
    async stop() {},
  }
}

async function redisStore(): Promise<Store & { url: string }> {
  const redis: RedisServer = await startRedis()
  return {
    url: redis.url,
    config: () => ({ driver: 'redis', dataDir: tempDir('unused'), redisUrl: redis.url }),
    async dump() {
      const client = new Redis(redis.url)
      const keys = await client.keys('*')
      // each value read as its type (DUMP's format compresses values, which would hide a key inside them)
      const values = await Promise.all(
        keys.map(async (key) => {
          const type = await client.type(key)
          if (type === 'string') return client.get(key)
          if (type === 'hash') return JSON.stringify(await client.hgetall(key))
          if (type === 'set') return JSON.stringify(await client.smembers(key))
          if (type === 'list') return JSON.stringify(await client.lrange(key, 0, -1))
          if (type === 'zset') return JSON.stringify(await client.zrange(key, 0, -1, 'WITHSCORES'))
          throw new Error(`unexpected Redis type ${type} of ${key}`)
        }),
      )
      await client.quit()
      return keys.map((key, i) => `${key}\n${values[i]}`).join('\n')
    },
    async moveQuotaReset(userId, resetAt) {
      const client = new Redis(redis.url)
      const key = `scoring:counters:{${userId}}:quota`
      assert.is(await client.exists(key), 1, 'the window is stored')
      await client.hset(key, 'reset_at', resetAt)
      await client.pexpireat(key, resetAt)
      await client.quit()
    },
    stop: () => redis.stop(),
  }
}

storeSuite('embedded', async () => embeddedStore()).run()
storeSuite('redis', redisStore).run()

const embedded = suite('access [embedded] persistence')

embedded('crash :: counted calls reach the disk without close (a flush every second)', async () => {
  const store = embeddedStore()
  const running = await createServices(store.config())
  const { userId } = await running.admin.createAccount({})
  const { key } = await running.admin.createKey(userId, 'main')
  for (let i = 0; i < 6; i++) await running.access.admit(credentials({ header: key }), 'api-get-alpha')
  // what a process started after a crash reads, until the next flush has written them (a loaded machine runs the
  // one-second timer late: up to 10 s)
  const readAfterCrash = async () => {
    const afterCrash = await createServices(store.config())
    const { used } = (await afterCrash.admin.usage(userId)).quota
    await afterCrash.close()
    return used
  }
  let used = 0
  for (const deadline = Date.now() + 10_000; used !== 6 && Date.now() < deadline; ) {
    await sleep(250)
    used = await readAfterCrash()
  }
  assert.is(used, 6)
  await running.close()
})

embedded('files :: every write is a temp file renamed into place: none left over, every file parses', async () => {
  const store = embeddedStore()
  const services = await createServices(store.config())
  const { userId } = await services.admin.createAccount({})
  const { key } = await services.admin.createKey(userId, 'main')
  await Promise.all(Array.from({ length: 200 }, () => services.access.admit(credentials({ header: key }), 'api-limits')))
  await services.admin.setPlan(userId, { rate: '500/minute' })
  await services.close()
  const dir = store.config().dataDir
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => fs.statSync(path.join(dir, f)).isFile())
  assert.ok(files.includes('counters.json') && files.includes(`access/accounts/${userId}`))
  assert.not.ok(files.some((file) => file.endsWith('.tmp')))
  for (const file of files) JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))
  const counters = JSON.parse(fs.readFileSync(path.join(dir, 'counters.json'), 'utf8'))
  assert.is(counters[`quota:${userId}`].count, 200)
})

embedded('unreadable record :: a failed read fails the requests of that moment and is never kept as the account', async () => {
  const store = embeddedStore()
  const writer = await createServices(store.config())
  const { userId } = await writer.admin.createAccount({})
  const { key } = await writer.admin.createKey(userId, 'main')
  await writer.close()
  // a symlink to itself: reading it fails with ELOOP, which unstorage's fs driver returns as the item's value
  const record = path.join(store.config().dataDir, 'access', 'accounts', String(userId))
  const saved = fs.readFileSync(record)
  fs.rmSync(record)
  fs.symlinkSync(record, record)
  const services = await createServices(store.config())
  const failed = await Promise.allSettled(Array.from({ length: 50 }, () => services.access.admit(credentials({ header: key }), 'api-limits')))
  for (const outcome of failed) {
    assert.is(outcome.status, 'rejected')
    assert.match(String((outcome as PromiseRejectedResult).reason), `storage item access:accounts:${userId} could not be read`)
  }
  fs.rmSync(record)
  fs.writeFileSync(record, saved)
  const admitted = await Promise.all(Array.from({ length: 200 }, () => services.access.admit(credentials({ header: key }), 'api-limits')))
  assert.ok(admitted.every((admission) => admission.userId === userId))
  assert.is((await services.admin.usage(userId)).quota.used, 200)
  await services.close()
})

embedded('unreadable counters :: the store refuses to open rather than start from zero and overwrite the saved counts', async () => {
  const store = embeddedStore()
  const dataDir = store.config().dataDir
  fs.mkdirSync(dataDir, { recursive: true })
  const counters = path.join(dataDir, 'counters.json')
  fs.symlinkSync(counters, counters)
  const opened = await createServices(store.config()).then(
    (services) => services.close().then(() => 'opened'),
    (error: Error) => error.message,
  )
  assert.match(opened, /counters\.json in the data directory could not be read/)
  assert.ok(fs.lstatSync(counters).isSymbolicLink())
})

embedded.run()

const scaleOut = suite<{ store: Store & { url: string }; services: AccessServices }>('access [redis] scale-out')

scaleOut.before(async (ctx) => {
  ctx.store = await redisStore()
  ctx.services = await createServices(ctx.store.config())
})
scaleOut.after(async (ctx) => {
  try {
    await ctx.services?.close()
  } finally {
    await ctx.store?.stop()
  }
})

/** A real server process (`scripts/serve.ts`) on the shared Redis, serving the tests' snapshot on a free port. */
async function startServerProcess(env: Record<string, string>): Promise<{ url: string; log: () => string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOOKUPS_RECORD: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let log = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  // never left running by a failed test
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`server did not start:\n${log}`))
    }, 60_000)
    const ready = () => {
      const line = log.split('\n').find((l) => l.includes('"server.ready"'))
      if (!line) return
      clearTimeout(timer)
      child.stderr.off('data', ready)
      resolve(JSON.parse(line).url)
    }
    child.stderr.on('data', ready)
    exited.then((code) => reject(new Error(`server exited with ${code}:\n${log}`)))
  })
  return {
    url,
    log: () => log,
    async stop() {
      process.off('exit', killOnExit)
      child.kill('SIGTERM')
      assert.is(await exited, 0, 'a graceful stop')
    },
  }
}

scaleOut('quota :: quota 100 across 3 keys and 2 server processes on one Redis admits exactly 100', async (ctx) => {
  const { admin } = ctx.services
  const { userId } = await admin.createAccount({ monthlyQuota: 100 })
  const keys: string[] = []
  for (const name of ['a', 'b', 'c']) keys.push((await admin.createKey(userId, name)).key)
  const { snapshotsDir } = await setup()
  const env = { STORAGE_DRIVER: 'redis', REDIS_URL: ctx.store.url, SNAPSHOTS_DIR: snapshotsDir, DATA_DIR: tempDir('scale-out') }
  const started = await Promise.allSettled([startServerProcess(env), startServerProcess(env)])
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
  if (servers.length < 2) {
    await Promise.all(servers.map((server) => server.stop()))
    throw started.find((result) => result.status === 'rejected')!.reason
  }
  const agents = servers.map(() => new http.Agent({ keepAlive: true, maxSockets: 8 }))
  try {
    // 200 calls, alternately to each server, 16 in flight (8 per server), round-robin over the keys
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) => outcomeOf(agents[i % 2], `${servers[i % 2].url}api/v1/get_categories`, { 'x-api-key': keys[i % 3] }).then((o) => [i % 2, o] as const)),
    )
    const admitted = (server: number) => outcomes.filter(([s, o]) => s === server && o === 'ok').length
    assert.is(admitted(0) + admitted(1), 100)
    assert.ok(admitted(0) > 0 && admitted(1) > 0, `both servers admitted calls (${admitted(0)} + ${admitted(1)})`)
    assert.ok(outcomes.every(([, o]) => o === 'ok' || o === 'quota_exceeded'))
    assert.is((await admin.usage(userId)).quota.used, 100)
  } finally {
    for (const agent of agents) agent.destroy()
    await Promise.all(servers.map((server) => server.stop()))
  }
  const stored = await ctx.store.dump()
  const logs = servers.map((server) => server.log()).join('')
  assert.match(logs, '"server.ready"')
  for (const key of keys) {
    assert.not.ok(stored.includes(key), 'no raw key in Redis')
    assert.not.ok(logs.includes(key), 'no raw key in the servers’ logs')
  }
})

scaleOut.run()

const rules = suite('access rules')

rules('credentials :: readApiKey reports the winning credential and where it came from', () => {
  assert.equal(readApiKey(credentials({ header: 'h', bearer: 'b', query: 'q' })), { key: 'h', source: 'header' })
  assert.equal(readApiKey(credentials({ bearer: 'b', query: 'q' })), { key: 'b', source: 'bearer' })
  assert.equal(readApiKey(credentials({ query: 'q' })), { key: 'q', source: 'query' })
  assert.is(readApiKey(credentials({})), null)
})

rules('credentials :: two Authorization bearer fields make the credential invalid, not missing', () => {
  const query = new URLSearchParams()
  const twice = new Headers()
  twice.append('Authorization', 'Bearer ask_1')
  twice.append('Authorization', 'Bearer ask_2')
  assert.is(readApiKey({ headers: twice, query }), 'invalid')
  assert.is(readApiKey({ headers: new Headers({ authorization: 'Bearer ask_1 ask_2' }), query }), 'invalid')
  twice.set('x-api-key', 'ask_3')
  assert.equal(readApiKey({ headers: twice, query }), { key: 'ask_3', source: 'header' }, 'the header still wins')
  assert.is(readApiKey({ headers: new Headers({ authorization: 'Basic x, Basic y' }), query }), null)
})

rules('cache :: the embedded cache holds at most its bytes of keys and bodies, the least recently used out first', async () => {
  const backend = await openEmbeddedBackend(fixtureTempDir('lru-cache'), 4096)
  try {
    const body = (i: number) => `{"n":${i},"pad":"${'x'.repeat(900)}"}`
    for (let i = 0; i < 3; i++) await backend.cache.set(`k${i}`, body(i), 60)
    assert.is(await backend.cache.get('k0'), body(0), 'k0 is now the most recently used')
    for (let i = 3; i < 6; i++) await backend.cache.set(`k${i}`, body(i), 60)
    const held = []
    for (let i = 0; i < 6; i++) if ((await backend.cache.get(`k${i}`)) === body(i)) held.push(i)
    assert.ok(held.length >= 2 && held.length <= 4, `${held} fit in 4 KiB`)
    assert.ok(held.includes(5) && !held.includes(1), `${held}: the newest kept, the least recently used gone`)
  } finally {
    await backend.close()
  }
})

rules('plans :: rate strings parse to a total and a period, unknown units fall back to minute', () => {
  assert.equal(parseRate('1000/minute'), { total: 1000, period: 'minute' })
  assert.equal(parseRate('10/second'), { total: 10, period: 'second' })
  assert.equal(parseRate('5/hour'), { total: 5, period: 'hour' })
  assert.equal(parseRate('7/day'), { total: 7, period: 'day' })
  assert.equal(parseRate('7/toString'), { total: 7, period: 'minute' })
  assert.equal(parseRate('7/weeks'), { total: 7, period: 'minute' })
  assert.equal(parseRate('20/Hours'), { total: 20, period: 'hour' })
  assert.equal(parseRate('3/SECONDS'), { total: 3, period: 'second' })
  assert.equal([rateUnit('20/Hours'), rateUnit('7/fortnight'), rateUnit('7')], ['hour', null, null])
  assert.throws(() => parseRate('fast'), /Invalid rate/)
})

rules('config :: STORAGE_DRIVER, DATA_DIR and REDIS_URL with their defaults', () => {
  const defaults = storageConfigFromEnv({})
  assert.equal([defaults.driver, defaults.dataDir, defaults.redisUrl], ['embedded', path.resolve('./data'), undefined])
  const redis = storageConfigFromEnv({ STORAGE_DRIVER: 'redis', REDIS_URL: 'redis://127.0.0.1:6390', DATA_DIR: '/tmp/x' })
  assert.equal([redis.driver, redis.dataDir, redis.redisUrl], ['redis', '/tmp/x', 'redis://127.0.0.1:6390'])
  assert.throws(() => storageConfigFromEnv({ STORAGE_DRIVER: 'memcached' }), /STORAGE_DRIVER must be/)
})

rules('config :: cache TTLs: CACHE_TTL_SECONDS, and get_followers_diff’s own, capped at one hour', () => {
  const defaults = serverConfigFromEnv({})
  assert.equal([defaults.cacheTtlSeconds, defaults.cacheTtlFollowersDiffSeconds], [60, 600])
  const set = serverConfigFromEnv({ CACHE_TTL_SECONDS: '5', CACHE_TTL_FOLLOWERS_DIFF_SECONDS: '1800' })
  assert.equal([set.cacheTtlSeconds, set.cacheTtlFollowersDiffSeconds], [5, 1800])
  assert.is(serverConfigFromEnv({ CACHE_TTL_FOLLOWERS_DIFF_SECONDS: '86400' }).cacheTtlFollowersDiffSeconds, 3600)
  assert.is(serverConfigFromEnv({ CACHE_TTL_SECONDS: '0' }).cacheTtlSeconds, 0)
})

rules.run()
