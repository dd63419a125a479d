import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { accountResolutionCases, pickAccounts } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { paginationCases } from './_pagination.ts'
import { BACKFILL_DAYS, scored } from './_scored.ts'
import { setup } from './_setup.ts'

const History = suite('get_score_history')
const OP = 'get_score_history'

/** Stored scores of the last `days` days including today (UTC), newest first, by SQL over the score_history parts read
 * over the scored dates (score_history_daily). */
async function expected(id: string, days: number | null) {
  const { query, today } = await scored()
  const window = days === null ? 'true' : `date > DATE '${today}' - ${days} AND date <= DATE '${today}'`
  return query(`
    SELECT strftime(date, '%Y-%m-%d') AS date, platform_score, rank FROM score_history_daily
    WHERE platform_id = '${id}'::UBIGINT AND ${window} ORDER BY date DESC`)
}

History('happy :: default period is 30 days ending today, newest first, with score and rank', async () => {
  const { get } = await scored()
  const { a, b } = await pickAccounts()
  for (const target of [a, b]) {
    const res = await get(OP, { platform_id: target.id })
    const rows = await expected(target.id, 30)
    assert.is(rows.length, 30, 'the backfill stores a score for each of the 30 days')
    assert.is(res.body.total, 30)
    assert.equal(res.body.score_history, rows)
    await assertMatchesOpenApi(OP, res)
  }
})

History('happy :: today’s entry is the account’s current score and rank', async () => {
  const { get, query, today } = await scored()
  const { a } = await pickAccounts()
  const [account] = await query(`SELECT platform_score, rank FROM accounts WHERE platform_id = '${a.id}'::UBIGINT`)
  const { body } = await get(OP, { platform_id: a.id, size: 1 })
  assert.equal(body.score_history, [{ date: today, platform_score: account.platform_score, rank: account.rank }])
})

History('period :: every value, case-insensitive; unknown values fall back to 30 days', async () => {
  const { get } = await scored()
  const { a } = await pickAccounts()
  const periods: [string, number | null][] = [
    ['3d', 3], ['7d', 7], ['1W', 7], ['30d', 30], ['1m', 30], ['180D', 180], ['6m', 180],
    ['365d', 365], ['1y', 365], ['ALL', null], ['all', null], ['2w', 30], ['', 30], ['90d', 30],
  ]
  for (const [period, days] of periods) {
    const res = await get(OP, { platform_id: a.id, period, size: 30 })
    const rows = await expected(a.id, days)
    assert.is(res.body.total, rows.length, period)
    assert.equal(res.body.score_history, rows.slice(0, 30), period)
  }
  assert.is((await expected(a.id, null)).length, BACKFILL_DAYS + 1, 'all = today and every backfilled day')
})

History('gaps :: days without a stored score (score 0 that day) are skipped', async () => {
  const { get, query } = await scored()
  const [gappy] = await query(`
    SELECT platform_id::VARCHAR AS id FROM score_history_daily GROUP BY platform_id
    HAVING count(*) BETWEEN 2 AND ${BACKFILL_DAYS} ORDER BY platform_id LIMIT 1`)
  assert.ok(gappy, 'the scored snapshot needs an account scored on only some days')
  const res = await get(OP, { platform_id: gappy.id, period: 'all' })
  const rows = await expected(gappy.id, null)
  assert.is(res.body.total, rows.length)
  assert.equal(res.body.score_history, rows)
})

History('ended :: the dates from a score of 0 on are skipped until the account scores again, on every page', async () => {
  const { get, query } = await scored()
  const ended = await query(`SELECT platform_id::VARCHAR AS id, date::VARCHAR AS d FROM score_history WHERE platform_score = 0 ORDER BY 1`)
  assert.ok(ended.length > 0, 'the scored snapshot needs an account whose score ended')
  for (const { id, d } of ended) {
    const rows = await expected(id, null)
    assert.not.ok(rows.some((r: any) => r.date === d), `${id} had no score on ${d}`)
    for (const page of ['1', '2']) {
      const res = await get(OP, { platform_id: id, period: 'all', size: '10', page })
      assert.is(res.body.total, rows.length)
      assert.equal(res.body.score_history, rows.slice((Number(page) - 1) * 10, Number(page) * 10), `${id} page ${page}`)
    }
  }
})

History('unscored :: an account never scored above 0 has an empty list and total 0', async () => {
  const { get, query } = await scored()
  const ids = await query(`
    SELECT platform_id::VARCHAR AS id FROM accounts a
    WHERE platform_score = 0 AND NOT EXISTS (SELECT 1 FROM score_history_daily h WHERE h.account_idx = a.account_idx)
    ORDER BY platform_id LIMIT 2`)
  assert.ok(ids.length > 0, 'the scored snapshot needs a never-scored account')
  for (const { id } of ids) {
    const res = await get(OP, { platform_id: id, period: 'all' })
    assert.equal(res.body, { success: true, total: 0, page: 1, size: 0, pages: 1, score_history: [] })
    await assertMatchesOpenApi(OP, res)
  }
})

History('ranks :: each date\'s rank is the account\'s rank that date, for accounts across the id range', async () => {
  const { get, query, today } = await scored()
  // the ranked accounts of today and of the oldest date of the window, in id order
  for (const day of [`DATE '${today}'`, `DATE '${today}' - 29`]) {
    const ranked = await query(`SELECT platform_id::VARCHAR AS id, strftime(date, '%Y-%m-%d') AS date, rank FROM score_ranks WHERE date = ${day} ORDER BY platform_id`)
    assert.ok(ranked.length > 1024, `${ranked.length} ranked accounts`)
    const positions = [0, 1, 510, 511, 512, 513, 1023, 1024, ranked.length - 2, ranked.length - 1]
    for (const { id, date, rank } of positions.map((k) => ranked[k])) {
      const { body } = await get(OP, { platform_id: id, period: 'all', size: 30 })
      assert.equal(body.score_history.find((r: any) => r.date === date)?.rank, rank, `${id} on ${date}`)
    }
  }
})

History('snapshot :: without a backfill the history is today’s score alone', async () => {
  const { get, today } = await setup()
  const { a } = await pickAccounts()
  const { body } = await get(OP, { platform_id: a.id, period: 'all' })
  assert.equal(body.score_history.map((r: any) => r.date), [today])
})

accountResolutionCases(History, OP, 'fallback', { period: 'all' })
paginationCases(History, OP, async () => ({ platform_id: (await pickAccounts()).a.id, period: 'all' }), { default: 30, max: 30 }, 'score_history', scored)

History.run()
