import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { accountResolutionCases, pickAccounts } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { paginationCases } from './_pagination.ts'
import { setup } from './_setup.ts'

const History = suite('followers_count_history')

/** Snapshots of the last `days` days including today (UTC), newest first, by SQL. */
async function expected(id: string, days: number | null) {
  const { query, today } = await setup()
  const window = days === null ? 'true' : `date > DATE '${today}' - ${days} AND date <= DATE '${today}'`
  return query(`
    SELECT strftime(date, '%Y-%m-%d') AS date, followers_count::DOUBLE AS followers_count FROM followers_count_history
    WHERE platform_id = '${id}'::UBIGINT AND ${window} ORDER BY date DESC`)
}

History('happy :: default period is 30 days ending today, newest first, days without scans skipped', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  const res = await get('followers_count_history', { platform_id: a.id })
  const rows = await expected(a.id, 30)
  assert.ok(rows.length > 1, 'the account needs scans in the last 30 days')
  assert.is(res.body.total, rows.length)
  assert.equal(res.body.followers_count, rows.slice(0, 30))
  await assertMatchesOpenApi('followers_count_history', res)
})

History('period :: every value, case-insensitive; unknown values fall back to 30 days', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  const periods: [string, number | null][] = [
    ['3d', 3], ['7d', 7], ['1W', 7], ['30d', 30], ['1m', 30], ['180D', 180], ['6m', 180],
    ['365d', 365], ['1y', 365], ['ALL', null], ['all', null], ['2w', 30], ['', 30], ['90d', 30],
  ]
  for (const [period, days] of periods) {
    const res = await get('followers_count_history', { platform_id: a.id, period, size: 30 })
    const rows = await expected(a.id, days)
    assert.is(res.body.total, rows.length, period)
    assert.equal(res.body.followers_count, rows.slice(0, 30), period)
  }
})

History('period :: names of JavaScript object members (constructor, __proto__, toString) are unknown values: 30 days', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  const rows = await expected(a.id, 30)
  for (const period of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    const res = await get('followers_count_history', { platform_id: a.id, period, size: 30 })
    assert.is(res.body.total, rows.length, period)
  }
})

History('unmonitored :: an account known only as a follower has an empty list and total 0', async () => {
  const { get, query } = await setup()
  const [outsider] = await query(`SELECT platform_id::VARCHAR AS id FROM accounts WHERE NOT is_monitored ORDER BY platform_id LIMIT 1`)
  assert.ok(outsider, 'the tiny snapshot needs an unmonitored account')
  const res = await get('followers_count_history', { platform_id: outsider.id, period: 'all' })
  assert.equal(
    { total: res.body.total, pages: res.body.pages, size: res.body.size, rows: res.body.followers_count },
    { total: 0, pages: 1, size: 0, rows: [] },
  )
  await assertMatchesOpenApi('followers_count_history', res)
})

accountResolutionCases(History, 'followers_count_history', 'fallback', { period: 'all' })
paginationCases(History, 'followers_count_history', async () => ({ platform_id: (await pickAccounts()).a.id, period: 'all' }), { default: 30, max: 30 }, 'followers_count')

History.run()
