import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { accountResolutionCases, pickAccounts } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { scored } from './_scored.ts'
import { setup } from './_setup.ts'

const Diff = suite('get_score_diff')
const OP = 'get_score_diff'

const signed = (diff: number) => (diff > 0 ? `+${diff.toFixed(2)}` : diff < 0 ? diff.toFixed(2) : '0')

/** One window by SQL: oldest stored score in [today-days+1, today], newest minus oldest to 2 decimals (0 with < 2). */
async function expectedWindow(id: string, days: number) {
  const { query, today } = await scored()
  const [row] = await query(`
    SELECT strftime(min(date), '%Y-%m-%d') AS date,
           CASE WHEN count(*) < 2 THEN 0
                ELSE round(arg_max(platform_score, date) - arg_min(platform_score, date), 2) END::DOUBLE AS diff
    FROM score_history_daily
    WHERE platform_id = '${id}'::UBIGINT AND date > DATE '${today}' - ${days} AND date <= DATE '${today}'`)
  const diff = row.diff + 0
  return { date: row.date, diff, diff_str: signed(diff) }
}

Diff('happy :: today is the UTC date; week and month windows by SQL', async () => {
  const { get, today } = await scored()
  const { a, b } = await pickAccounts()
  for (const target of [a, b]) {
    const res = await get(OP, { platform_id: target.id })
    assert.equal(res.body, {
      success: true,
      today,
      week: await expectedWindow(target.id, 7),
      month: await expectedWindow(target.id, 30),
    })
    assert.is(res.body.today, new Date().toISOString().slice(0, 10))
    await assertMatchesOpenApi(OP, res)
  }
})

Diff('diff :: many accounts by SQL; diff_str is +N.NN, -N.NN or 0 and never -0', async () => {
  const { get, query } = await scored()
  const ids = await query(`SELECT DISTINCT platform_id::VARCHAR AS id FROM score_history_daily ORDER BY 1 LIMIT 40`)
  const seen = new Set<string>()
  for (const { id } of ids) {
    const { body } = await get(OP, { platform_id: id })
    assert.equal([body.week, body.month], [await expectedWindow(id, 7), await expectedWindow(id, 30)], id)
    for (const w of [body.week, body.month]) {
      assert.match(w.diff_str, /^([+-]\d+\.\d{2}|0)$/)
      assert.not.ok(Object.is(w.diff, -0))
      seen.add(w.diff > 0 ? '+' : w.diff < 0 ? '-' : '0')
    }
  }
  assert.equal([...seen].sort(), ['+', '-', '0'], 'the sample needs rises, falls and no change')
})

Diff('unscored :: no stored score in the window gives date null and diff 0', async () => {
  const { get, query } = await scored()
  const [outsider] = await query(`
    SELECT platform_id::VARCHAR AS id FROM accounts a
    WHERE NOT EXISTS (SELECT 1 FROM score_history_daily h WHERE h.account_idx = a.account_idx) ORDER BY platform_id LIMIT 1`)
  assert.ok(outsider, 'the scored snapshot needs a never-scored account')
  const res = await get(OP, { platform_id: outsider.id })
  const empty = { date: null, diff: 0, diff_str: '0' }
  assert.equal([res.body.week, res.body.month], [empty, empty])
  await assertMatchesOpenApi(OP, res)
})

Diff('single score :: without a backfill both windows hold today alone: date today, diff 0', async () => {
  const { get, today } = await setup()
  const { a } = await pickAccounts()
  const res = await get(OP, { platform_id: a.id })
  const alone = { date: today, diff: 0, diff_str: '0' }
  assert.equal([res.body.week, res.body.month], [alone, alone])
})

accountResolutionCases(Diff, OP, 'fallback', {}, pickAccounts, scored)

Diff.run()
