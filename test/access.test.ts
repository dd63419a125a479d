/**
 * Access control from the server's side of the interface: authentication, monthly quota, per-bucket rates, headers,
 * response cache and operator actions. One suite, run against the embedded store and against a real redis-server.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { AccessAdminError, createServices, QUOTA_WINDOW_MS } from '../server/access/index.ts'
import { openEmbeddedBackend } from '../server/access/stores/embedded.ts'
import { openRedisBackend } from '../server/access/stores/redis.ts'
import {
  account, credentials, embeddedStore, METHODS, outcome, redisStore, refusal, sha256, sleep, tempDir,
  type Context, type Method, type Store,
} from './_access.ts'

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

storeSuite('embedded', async () => embeddedStore()).run()
storeSuite('redis', redisStore).run()
