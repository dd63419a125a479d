import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { accountResolutionCases, pickAccounts } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { scored } from './_scored.ts'
import { setup, type TestEnv } from './_setup.ts'

const Explain = suite('get_score_explanation')
const OP = 'get_score_explanation'

const orNull = (v: unknown) => (v === null || v === undefined ? null : Number(v))

/** The whole expected body, from the snapshot's explanation files by SQL. */
async function expected(query: TestEnv['query'], id: string) {
  const [e] = await query(`
    SELECT e.*, a.username, a.platform_score AS score, a.rank AS account_rank
    FROM score_explanations e JOIN accounts a USING (account_idx) WHERE e.platform_id = '${id}'::UBIGINT`)
  const contributors = await query(`
    SELECT f.platform_id::VARCHAR AS platform_id, f.username, f.name, f.platform_score, c.points, c.share,
           c.follower_is_seed, c.reciprocal
    FROM score_contributors c JOIN accounts f ON f.account_idx = c.follower_idx
    WHERE c.platform_id = '${id}'::UBIGINT ORDER BY c.position`)
  const window = async (days: number) => {
    const rows = await query(`
      SELECT c.change, f.platform_id::VARCHAR AS platform_id, f.username, f.name, f.platform_score, c.follower_is_seed,
             c.points
      FROM score_changes c JOIN accounts f ON f.account_idx = c.follower_idx
      WHERE c.platform_id = '${id}'::UBIGINT AND c.days = ${days} ORDER BY c.position LIMIT 20`)
    return {
      days,
      score_ago: orNull(e[`score_${days}d_ago`]),
      score_change: orNull(e[`score_change_${days}d`]),
      arrived: orNull(e[`arrived_${days}d`]),
      left: orNull(e[`left_${days}d`]),
      trusted: orNull(e[`trusted_${days}d`]),
      untrusted: orNull(e[`untrusted_${days}d`]),
      arrived_points: orNull(e[`arrived_points_${days}d`]),
      left_points: orNull(e[`left_points_${days}d`]),
      trusted_points: orNull(e[`trusted_points_${days}d`]),
      untrusted_points: orNull(e[`untrusted_points_${days}d`]),
      other_points: orNull(e[`other_points_${days}d`]),
      followers: rows.map((r) => ({
        change: r.change,
        platform_id: r.platform_id,
        username: r.username,
        name: r.name,
        platform_score: r.platform_score,
        is_seed: r.follower_is_seed,
        points: r.points,
      })),
    }
  }
  return {
    success: true,
    platform_id: id,
    username: e.username,
    platform_score: e.score,
    rank: e.account_rank ?? null,
    components: {
      audience: e.audience,
      size_followers: e.size_followers,
      size_divisor: e.size_divisor,
      smart_followers: Number(e.smart_followers),
      trusted_followers: Number(e.trusted_followers),
      saturated_followers: Number(e.saturated_followers),
      reciprocal_followers: Number(e.reciprocal_followers),
      seed_followers: Number(e.seed_followers),
      seed_share: e.seed_share,
      top_follower_share: e.top_follower_share,
      top3_share: e.top3_share,
      is_seed: e.is_seed,
      seed_standing: orNull(e.seed_standing),
      seed_endowment: orNull(e.seed_endowment),
    },
    top_contributors: contributors.map((c) => ({
      platform_id: c.platform_id,
      username: c.username,
      name: c.name,
      platform_score: c.platform_score,
      points: c.points,
      share: c.share,
      is_seed: c.follower_is_seed,
      reciprocal: c.reciprocal,
    })),
    changes: { week: await window(7), month: await window(30) },
  }
}

Explain('happy :: components, top contributors and 7/30-day changes as the snapshot files hold them', async () => {
  const { get, query } = await setup()
  const { a, b } = await pickAccounts()
  const [seed] = await query(`SELECT platform_id::VARCHAR AS id FROM score_explanations WHERE is_seed AND platform_score > 0 ORDER BY platform_id LIMIT 1`)
  for (const id of [a.id, b.id, seed.id]) {
    const res = await get(OP, { platform_id: id })
    assert.equal(res.body, await expected(query, id), id)
    await assertMatchesOpenApi(OP, res)
  }
})

Explain('contributors :: their points never exceed the score, their shares sum to at most 1, biggest first', async () => {
  const { get, query } = await setup()
  const ids = await query(`SELECT platform_id::VARCHAR AS id FROM accounts WHERE platform_score > 0 ORDER BY platform_score DESC, platform_id LIMIT 25`)
  for (const { id } of ids) {
    const { body } = await get(OP, { platform_id: id })
    const points = body.top_contributors.map((c: { points: number }) => c.points)
    const shares = body.top_contributors.map((c: { share: number }) => c.share)
    assert.ok(body.top_contributors.length > 0, id)
    assert.ok(points.reduce((x: number, y: number) => x + y, 0) <= body.platform_score + 0.05, id)
    assert.ok(shares.reduce((x: number, y: number) => x + y, 0) <= 1 + 1e-3, id)
    assert.equal(shares, [...shares].sort((x: number, y: number) => y - x), id)
  }
})

Explain('components :: the score is 1000 · ln(1 + audience / size_divisor) / ln(1001), size_divisor = (1 + size_followers / 100)^0.35', async () => {
  const { get, query } = await setup()
  const rows = await query(`SELECT platform_id::VARCHAR AS id FROM accounts WHERE is_tracked ORDER BY platform_score DESC, platform_id LIMIT 40`)
  for (const { id } of rows) {
    const { body } = await get(OP, { platform_id: id })
    const { audience, size_followers: size, size_divisor: divisor } = body.components
    assert.ok(Math.abs(divisor - (1 + size / 100) ** 0.35) < 1e-4, `${id}: divisor ${divisor} for ${size}`)
    const score = Math.min(1000, (1000 * Math.log(1 + audience / divisor)) / Math.log(1001))
    assert.ok(Math.abs(score - body.platform_score) <= 0.02, `${id}: ${body.platform_score} vs ${score}`)
  }
})

Explain('zero :: an account nobody smart follows has no contributors and no audience', async () => {
  const { get, query } = await setup()
  const [zero] = await query(`SELECT platform_id::VARCHAR AS id FROM accounts WHERE is_tracked AND platform_score = 0 ORDER BY platform_id LIMIT 1`)
  const { body } = await get(OP, { platform_id: zero.id })
  assert.equal(body.top_contributors, [])
  assert.is(body.components.audience, 0)
  assert.is(body.platform_score, 0)
})

Explain('history :: with earlier scores stored, score_ago and score_change are the history’s, and the parts add up', async () => {
  const { get, query } = await scored()
  const { a } = await pickAccounts()
  const res = await get(OP, { platform_id: a.id })
  assert.equal(res.body, await expected(query, a.id))
  for (const w of [res.body.changes.week, res.body.changes.month]) {
    assert.is.not(w.score_ago, null)
    const parts = w.arrived_points + w.left_points + w.trusted_points + w.untrusted_points + w.other_points
    assert.ok(Math.abs(parts - w.score_change) < 0.03, JSON.stringify(w))
    assert.ok(w.followers.length <= 20 && w.followers.length <= w.arrived + w.left + w.trusted + w.untrusted)
  }
})

Explain('not covered :: with no score stored 7 or 30 days before (a first night), the windows have no parts and list nobody', async () => {
  const { get, query } = await setup()
  const [busy] = await query(`SELECT platform_id::VARCHAR AS id FROM accounts WHERE smart_followers_count > 0 ORDER BY platform_id LIMIT 1`)
  const { body } = await get(OP, { platform_id: busy.id })
  const unknown = {
    ...{ score_ago: null, score_change: null, arrived: null, left: null, trusted: null, untrusted: null },
    ...{ arrived_points: null, left_points: null, trusted_points: null, untrusted_points: null, other_points: null, followers: [] },
  }
  assert.equal(body.changes, { week: { days: 7, ...unknown }, month: { days: 30, ...unknown } })
})

accountResolutionCases(Explain, OP, 'fallback')

Explain.run()
