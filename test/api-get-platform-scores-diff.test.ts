import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { accountResolutionCases, pickAccounts } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { scored } from './_scored.ts'
import { setup } from './_setup.ts'

const ScoresDiff = suite('get_platform_scores_diff')
const OP = 'get_platform_scores_diff'

ScoresDiff('compat :: the original API name answers exactly what get_score_diff answers', async () => {
  const { get, query } = await scored()
  const ids = await query(`SELECT DISTINCT platform_id::VARCHAR AS id FROM score_history_daily ORDER BY 1 LIMIT 15`)
  for (const { id } of ids) {
    const res = await get(OP, { platform_id: id })
    assert.equal(res.body, (await get('get_score_diff', { platform_id: id })).body, id)
    assert.is(res.body.success, true)
    for (const window of [res.body.week, res.body.month]) assert.is(typeof window.diff, 'number')
    await assertMatchesOpenApi(OP, res)
  }
})

ScoresDiff('compat :: its own rate-limit bucket and its own cache entries', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  const params = { platform_id: a.id, probe: `bucket-${Date.now()}` }
  assert.is((await get('get_score_diff', params)).headers.get('x-cache'), 'MISS')
  const res = await get(OP, params)
  assert.is(res.headers.get('x-cache'), 'MISS', 'get_score_diff’s entry is not this operation’s')
  assert.match(res.headers.get('ratelimit-policy')!, /"api-get-platform-scores-diff";q=/)
  assert.is((await get(OP, params)).headers.get('x-cache'), 'HIT')
})

accountResolutionCases(ScoresDiff, OP, 'fallback', {}, pickAccounts, scored)

ScoresDiff.run()
