/**
 * The score's explanations (docs/score.md, "Explanations"): score_explanations, score_contributors and score_changes
 * on the hand-made fixture, built with a 30-day backfill so the look-backs exist, checked against the independent
 * model (test/_score-model.ts) and against the follow history of the fixture read by hand.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import path from 'node:path'
import { buildSnapshot } from '../pipeline/build.ts'
import { BUILD_DATE, account, baseRaw, id, idx, readParquet, scan, tempDir, writeRaw } from './_fixtures.ts'
import { divisorOf, modelScores, pointsOf, weightOf } from './_score-model.ts'

const built = (async () => {
  const rows = baseRaw()
  // VcTwo (2) unfollows Proj (4) on 11-17 and follows it again on 11-20: a follow that left and came back
  rows['follow_scans.parquet'].push(scan(2, '2026-11-17', [1]))
  const raw = await writeRaw(tempDir('explain-raw'), rows)
  const { dir } = await buildSnapshot({ rawDir: raw, snapshotsDir: tempDir('explain-snapshots'), date: BUILD_DATE, backfillDays: 30 })
  const read = (file: string) => readParquet(path.join(dir, `${file}.parquet`))
  return {
    model: await modelScores(dir),
    accounts: await read('accounts'),
    explanations: await read('score_explanations'),
    contributors: await read('score_contributors'),
    changes: await read('score_changes'),
  }
})()

const near = (a: number, b: number, tolerance: number, what: string) => assert.ok(Math.abs(a - b) <= tolerance, `${what}: ${a} vs ${b}`)

const Contributors = suite('score_contributors')

Contributors('contributors :: the followers holding trust the account did not give them, weightiest first, as the model computes them', async () => {
  const { model, contributors, accounts } = await built
  accounts.forEach((a, i) => {
    const rows = contributors.filter((c) => c.account_idx === i)
    const shares = model.shares[i]
    const expected = [...model.weights[i]].filter(([, weight]) => weight > 0)
      .sort((x, y) => y[1] - x[1] || shares.get(y[0])! - shares.get(x[0])! || x[0] - y[0])
    if ((a.platform_score as number) === 0) return assert.is(rows.length, 0, String(a.username))
    assert.equal(rows.map((r) => r.position), rows.map((_, p) => p))
    assert.equal(rows.map((r) => r.follower_idx), expected.map(([f]) => f).slice(0, 10), String(a.username))
    rows.forEach((r, p) => {
      near(r.share as number, expected[p][1] / model.audience[i], 1e-3, `${a.username} share`)
      assert.is(r.follower_is_seed, model.seeds.has(r.follower_idx as number))
    })
    if (expected.length <= 10) {
      near(rows.reduce((sum, r) => sum + (r.points as number), 0), a.platform_score as number, 0.01 * rows.length, `${a.username} points`)
    }
  })
})

Contributors('contributors :: a reciprocal follower is flagged', async () => {
  const { contributors } = await built
  // Proj (4) follows VcOne (1) back
  const row = contributors.find((c) => c.account_idx === idx(1) && c.follower_idx === idx(4))
  if (row) assert.is(row.reciprocal, true)
  assert.ok(contributors.filter((c) => c.account_idx === idx(4) && c.follower_idx === idx(1)).every((c) => c.reciprocal === true))
})

const Explanations = suite('score_explanations')

Explanations('components :: audience in trusted-follower units, the size term, follower counts, seed standing', async () => {
  const { model, explanations, accounts } = await built
  assert.is(explanations.length, accounts.length)
  explanations.forEach((e, i) => {
    assert.is(e.platform_score, accounts[i].platform_score)
    near(e.audience as number, model.audience[i], 2e-3, `${accounts[i].username} audience`)
    near(e.size_followers as number, model.sizeFollowers[i], 1e-9, `${accounts[i].username} size_followers`)
    near(e.size_divisor as number, divisorOf(model.sizeFollowers[i]), 1e-4, `${accounts[i].username} size_divisor`)
    assert.is(e.smart_followers, accounts[i].smart_followers_count)
    assert.is(e.trusted_followers, [...model.weights[i].values()].filter((w) => w > 0).length)
    assert.is(e.is_seed, model.seeds.has(i))
    if (model.seeds.has(i)) near(e.seed_endowment as number, model.endowment.get(i)!, 1e-6, 'endowment')
    else assert.is(e.seed_endowment, null)
  })
  // Founder (3) is a seed nobody smart follows: no standing, no endowment
  assert.is(explanations[idx(3)].seed_endowment, 0)
})

Explanations('changes :: score_change = arrived + left + other, with the look-back from the history', async () => {
  const { explanations } = await built
  for (const e of explanations) {
    for (const days of [7, 30]) {
      const change = e[`score_change_${days}d`] as number
      assert.is(change, Math.round(((e.platform_score as number) - (e[`score_${days}d_ago`] as number)) * 100) / 100)
      const parts = ['arrived', 'left', 'trusted', 'untrusted', 'other'].map((kind) => e[`${kind}_points_${days}d`] as number)
      near(change, parts.reduce((sum, p) => sum + p, 0), 0.031, 'sum')
    }
  }
})

const Changes = suite('score_changes')

Changes('changes :: SmallGem gained VcOne (11-16) and Angel (11-22) within 7 days; VcOne\'s arrival moved it by its weight', async () => {
  const { model, changes, explanations } = await built
  const gem = changes.filter((c) => c.account_idx === idx(7) && c.days === 7)
  assert.equal(gem.map((c) => [c.change, c.follower_id]).sort(), [['arrived', id(1)], ['arrived', id(6)]])
  const i = idx(7)
  const weight = model.weights[i].get(idx(1))!
  const points = (audience: number) => pointsOf(audience, model.sizeFollowers[i])
  near(gem.find((c) => c.follower_id === id(1))!.points as number, points(model.audience[i]) - points(model.audience[i] - weight), 0.01, 'VcOne')
  assert.is(gem.find((c) => c.follower_id === id(6))!.points, 0)
  assert.is(explanations[i].arrived_7d, 2)
})

Changes('changes :: Infl lost VcOne (11-21) within 7 days: minus what VcOne\'s weight would add today', async () => {
  const { model, changes } = await built
  const lost = changes.filter((c) => c.account_idx === idx(5) && c.days === 7 && c.change === 'left')
  assert.equal(lost.map((c) => c.follower_id), [id(1)])
  const i = idx(5)
  const weight = weightOf(model.trust[idx(1)])
  const points = (audience: number) => pointsOf(audience, model.sizeFollowers[i])
  near(lost[0].points as number, points(model.audience[i]) - points(model.audience[i] + weight), 0.01, 'VcOne')
  assert.ok((lost[0].points as number) < 0)
})

Changes('changes :: a follow held on the look-back day and now, gone in between, neither arrived nor left', async () => {
  const { changes, explanations } = await built
  const rows = changes.filter((c) => c.account_idx === idx(4) && c.follower_id === id(2))
  // held on 11-15 (followed since 11-10) and held now (followed again 11-20): no change in 7 days; not yet held on
  // 10-23 (the first scan is of 11-10): an arrival in 30 days. VcTwo, a seed scoring 0 then and now, passes trust
  // from its endowment: not listed as trusted
  assert.equal(rows.map((c) => [c.days, c.change]), [[30, 'arrived']])
  assert.is(explanations[idx(4)].left_7d, 0)
})

Changes('changes :: positions order each account and window by |points|', async () => {
  const { changes } = await built
  const groups = new Map<string, typeof changes>()
  for (const c of changes) groups.set(`${c.account_idx}/${c.days}`, [...(groups.get(`${c.account_idx}/${c.days}`) ?? []), c])
  for (const rows of groups.values()) {
    assert.equal(rows.map((r) => r.position), rows.map((_, p) => p))
    for (let p = 1; p < rows.length; p++) assert.ok(Math.abs(rows[p - 1].points as number) >= Math.abs(rows[p].points as number))
  }
})

/**
 * Quiet (17) is followed since 11-10 by Fresh (15) and Faded (16), plain monitored accounts. Proj, trusted, follows
 * Faded from 11-12 to 11-18 and Fresh from 11-20: on the 7-day look-back (11-15) trust reached Faded and not Fresh,
 * today the other way round, while Quiet's smart followers stayed the same. Echo (18) and Host (19) follow each
 * other since 11-10; Proj follows Host from 11-12 to 11-18: Echo's trust came from Host alone, so it passed Host
 * nothing back (no echo), and neither is reached today. Echo2 (20) follows Host2 (21) since 11-10, which Proj follows
 * throughout and which follows Echo2 back until 11-18: Echo2, reached through Host2 alone, passed it nothing then.
 * Farmer (22) follows Proj until 11-18, followed back throughout: its trust is all Proj's.
 */
const turned = (async () => {
  const rows = baseRaw()
  const plain = (k: number, name: string) => account(k, name, name, {}, 40)
  rows['accounts.parquet'].push(plain(15, 'Fresh'), plain(16, 'Faded'), plain(17, 'Quiet'), plain(18, 'Echo'), plain(19, 'Host'))
  rows['accounts.parquet'].push(plain(20, 'Echo2'), plain(21, 'Host2'), plain(22, 'Farmer'))
  rows['follow_scans.parquet'] = rows['follow_scans.parquet'].filter((s) => s[2] !== id(4))
  rows['follow_scans.parquet'].push(
    scan(15, '2026-11-10', [17]), scan(16, '2026-11-10', [17]), scan(18, '2026-11-10', [19]), scan(19, '2026-11-10', [18]),
    scan(4, '2026-11-12', [1, 16, 19, 21, 22]), scan(4, '2026-11-18', [1, 21, 22]), scan(4, '2026-11-20', [1, 15, 21, 22]),
    scan(20, '2026-11-10', [21]), scan(21, '2026-11-10', [20]), scan(21, '2026-11-18', []),
    scan(22, '2026-11-10', [4]), scan(22, '2026-11-18', []),
  )
  const raw = await writeRaw(tempDir('turned-raw'), rows)
  const { dir } = await buildSnapshot({ rawDir: raw, snapshotsDir: tempDir('turned-snapshots'), date: BUILD_DATE, backfillDays: 30 })
  const read = (file: string) => readParquet(path.join(dir, `${file}.parquet`))
  return { model: await modelScores(dir), explanations: await read('score_explanations'), changes: await read('score_changes') }
})()

const Turned = suite('score_changes: trust started or stopped reaching a follower')

Turned('turned :: Fresh, reached by trust since, is listed as trusted; Faded, no longer reached, as untrusted', async () => {
  const { model, changes, explanations } = await turned
  const i = idx(17)
  const week = changes.filter((c) => c.account_idx === i && c.days === 7)
  assert.equal(week.map((c) => [c.change, c.follower_id]), [['trusted', id(15)], ['untrusted', id(16)]])
  const points = (audience: number) => pointsOf(audience, model.sizeFollowers[i])
  assert.is(model.weights[i].get(idx(16)) ?? 0, 0)
  near(week[0].points as number, points(model.audience[i]) - points(model.audience[i] - model.weights[i].get(idx(15))!), 0.01, 'Fresh')
  near(week[1].points as number, points(model.audience[i]) - points(model.audience[i] + 1), 0.01, 'Faded')
  const e = explanations[i]
  assert.equal([e.arrived_7d, e.left_7d, e.trusted_7d, e.untrusted_7d], [0, 0, 1, 1])
  assert.is(e.trusted_points_7d, week[0].points)
  assert.is(e.untrusted_points_7d, week[1].points)
  assert.is(e.score_change_7d, 0)
})

Turned('turned :: over 30 days both arrived (not followed on 10-23); the follows Proj made and dropped are its own arrivals and departures', async () => {
  const { changes, explanations } = await turned
  const month = changes.filter((c) => c.account_idx === idx(17) && c.days === 30)
  assert.equal(month.map((c) => [c.change, c.follower_id]).sort(), [['arrived', id(15)], ['arrived', id(16)]])
  assert.equal([explanations[idx(17)].trusted_30d, explanations[idx(17)].untrusted_30d], [0, 0])
  const of = (k: number) => changes.filter((c) => c.account_idx === idx(k) && c.days === 7).map((c) => [c.change, c.follower_id])
  assert.equal(of(15), [['arrived', id(4)]])
  assert.equal(of(16), [['left', id(4)]])
})

Turned('turned :: a follower the account follows back, now or on the look-back day, is not listed as untrusted: the trust it had may have been the account\'s own', async () => {
  const { changes } = await turned
  const week = (k: number) => changes.filter((c) => c.account_idx === idx(k) && c.days === 7).map((c) => [c.change, c.follower_id])
  assert.equal(week(19), [['left', id(4)]])
  // Echo's follower Host, which Echo follows back, is not listed either (conservatively: Host's trust came from Proj)
  assert.equal(week(18), [])
  assert.equal(week(21), [])
})

Turned('left :: a follower whose trust was all the account\'s own (a follow-back farm\'s member) weighed nothing: its departure moves nothing', async () => {
  const { changes } = await turned
  const left = changes.filter((c) => c.account_idx === idx(4) && c.days === 7 && c.follower_id === id(22))
  assert.equal(left.map((c) => [c.change, c.points]), [['left', 0]])
})

Contributors.run()
Explanations.run()
Changes.run()
Turned.run()
