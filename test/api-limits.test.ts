import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { assertMatchesOpenApi } from './_openapi.ts'
import { setup } from './_setup.ts'

const Limits = suite('limits')

/** A fresh account on the default plan with two keys. */
async function freshAccount() {
  const { services } = await setup()
  const account = await services.admin.createAccount()
  const first = await services.admin.createKey(account.userId, 'one')
  const second = await services.admin.createKey(account.userId, 'two')
  return { userId: account.userId, keys: [first.key, second.key] }
}

const localNaive = (d: Date) => {
  const p = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`
}

Limits('happy :: user_id and exactly two rates: the month quota (this call counted) and the per-minute rate', async () => {
  const { get, services } = await setup()
  const { userId, keys } = await freshAccount()
  const res = await get('limits', {}, { key: keys[0] })
  const usage = await services.admin.usage(userId)
  assert.equal(res.body, {
    user_id: userId,
    rates: [
      { period: 'month', total: 10000, used: 1, remaining: 9999, reset_time_at: localNaive(usage.quota.resetAt!) },
      { period: 'minute', total: 1000 },
    ],
  })
  assert.is('success' in res.body, false)
  assert.match(res.body.rates[0].reset_time_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/)
  await assertMatchesOpenApi('limits', res)
})

Limits('quota :: every call counts, all keys of an account share the counter, other operations too', async () => {
  const { get } = await setup()
  const { keys } = await freshAccount()
  await get('limits', {}, { key: keys[0] })
  await get('get_categories', {}, { key: keys[1] })
  const res = await get('limits', {}, { key: keys[1] })
  assert.is(res.body.rates[0].used, 3)
  assert.is(res.body.rates[0].remaining, 9997)
})

Limits('plan :: the rates follow the account’s plan', async () => {
  const { get, services } = await setup()
  const { userId, keys } = await freshAccount()
  await services.admin.setPlan(userId, { monthlyQuota: 500, rate: '20/hour' })
  const res = await get('limits', {}, { key: keys[0] })
  assert.equal(res.body.rates[1], { period: 'hour', total: 20 })
  assert.equal([res.body.rates[0].total, res.body.rates[0].remaining], [500, 499])
})

Limits('reset_time_at :: in the server’s local time zone, without a suffix (here UTC+05:30)', async () => {
  const { get, services } = await setup()
  const { userId, keys } = await freshAccount()
  const zone = process.env.TZ
  process.env.TZ = 'Asia/Kolkata' // UTC+05:30 all year: no daylight saving time
  try {
    const res = await get('limits', {}, { key: keys[0] })
    const resetAt = (await services.admin.usage(userId)).quota.resetAt!.getTime()
    const expected = new Date(resetAt + 5.5 * 3600_000).toISOString().replace('Z', '')
    assert.is(res.body.rates[0].reset_time_at, expected)
  } finally {
    if (zone === undefined) delete process.env.TZ
    else process.env.TZ = zone
  }
})

Limits('errors :: without a key it is api_key_missing', async () => {
  const { get } = await setup()
  const res = await get('limits', {}, { key: null })
  assert.is(res.body.error.code, 'api_key_missing')
  await assertMatchesOpenApi('limits', res)
})

Limits.run()
