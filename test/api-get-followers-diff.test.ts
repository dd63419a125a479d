import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { accountResolutionCases, pickAccounts } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { setup } from './_setup.ts'

const Diff = suite('get_followers_diff')

/** One window by SQL: oldest snapshot date in [today-days+1, today], newest minus oldest (0 with < 2 snapshots). */
async function expectedWindow(id: string, days: number) {
  const { query, today } = await setup()
  const [row] = await query(`
    SELECT strftime(min(date), '%Y-%m-%d') AS date,
           CASE WHEN count(*) < 2 THEN 0 ELSE (arg_max(followers_count, date) - arg_min(followers_count, date)) END::INTEGER AS diff
    FROM followers_count_history
    WHERE platform_id = '${id}'::UBIGINT AND date > DATE '${today}' - ${days} AND date <= DATE '${today}'`)
  return { date: row.date, diff: row.diff, diff_str: row.diff > 0 ? `+${row.diff}` : String(row.diff) }
}

Diff('happy :: today is the UTC date; week and month windows by SQL', async () => {
  const { get, today } = await setup()
  const { a, b } = await pickAccounts()
  for (const target of [a, b]) {
    const res = await get('get_followers_diff', { platform_id: target.id })
    assert.equal(res.body, {
      success: true,
      today,
      week: await expectedWindow(target.id, 7),
      month: await expectedWindow(target.id, 30),
    })
    assert.is(res.body.today, new Date().toISOString().slice(0, 10))
    await assertMatchesOpenApi('get_followers_diff', res)
  }
})

Diff('happy :: agrees with the snapshot’s followers_diff file (built today)', async () => {
  const { get, query } = await setup()
  const { a } = await pickAccounts()
  const [row] = await query(`
    SELECT strftime(week_date, '%Y-%m-%d') AS week_date, week_diff::INTEGER AS week_diff,
           strftime(month_date, '%Y-%m-%d') AS month_date, month_diff::INTEGER AS month_diff
    FROM followers_diff WHERE platform_id = '${a.id}'::UBIGINT`)
  const { body } = await get('get_followers_diff', { platform_id: a.id })
  assert.equal([body.week.date, body.week.diff, body.month.date, body.month.diff], [row.week_date, row.week_diff, row.month_date, row.month_diff])
})

Diff('diff_str :: +N, -N or 0', async () => {
  const { get, query } = await setup()
  const ids = await query(`SELECT DISTINCT platform_id::VARCHAR AS id FROM followers_count_history ORDER BY 1 LIMIT 40`)
  for (const { id } of ids) {
    const { body } = await get('get_followers_diff', { platform_id: id })
    for (const w of [body.week, body.month]) {
      assert.is(w.diff_str, w.diff > 0 ? `+${w.diff}` : w.diff < 0 ? `-${-w.diff}` : '0')
    }
  }
})

Diff('unmonitored :: no snapshot in the window gives date null and diff 0', async () => {
  const { get, query } = await setup()
  const [outsider] = await query(`SELECT platform_id::VARCHAR AS id FROM accounts WHERE NOT is_monitored ORDER BY platform_id LIMIT 1`)
  const res = await get('get_followers_diff', { platform_id: outsider.id })
  const empty = { date: null, diff: 0, diff_str: '0' }
  assert.equal([res.body.week, res.body.month], [empty, empty])
  await assertMatchesOpenApi('get_followers_diff', res)
})

accountResolutionCases(Diff, 'get_followers_diff', 'fallback')

Diff.run()
