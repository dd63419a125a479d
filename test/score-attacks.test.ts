/**
 * What one account cannot buy (docs/score.md, "Attacks"): each attack of the score audit, on the hand-made fixture
 * where the expected effect is known without running the pipeline (nothing, or the independent model's value), and
 * on generated data against the planted truth: the targets' moves, inert floods, quality over size, day-to-day
 * stability.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import fs from 'node:fs'
import path from 'node:path'
import { buildSnapshot } from '../pipeline/build.ts'
import { addDays } from '../pipeline/plan.ts'
import { withInertAccountsSql, withoutAttacksSql, type PlantedAttack } from '../scripts/generate/attacks.ts'
import { BUILD_DATE, baseRaw, copyRaw, generatedTiny, id, idx, readParquet, rewriteRaw, tempDir, writeRaw, type RawRows } from './_fixtures.ts'
import { modelScores } from './_score-model.ts'

async function build(raw: string, date = BUILD_DATE) {
  const { dir } = await buildSnapshot({ rawDir: raw, snapshotsDir: tempDir('attack-snapshots'), date })
  const accounts = await readParquet(path.join(dir, 'accounts.parquet'))
  const byId = new Map(accounts.map((a) => [a.platform_id as string, a]))
  return {
    dir,
    accounts,
    score: (platformId: string) => byId.get(platformId)!.platform_score as number,
    rank: (platformId: string) => byId.get(platformId)!.rank as number,
  }
}

const buildRows = async (rows: RawRows) => build(await writeRaw(tempDir('attack-raw'), rows))

/** A monitored account k with no category and no followers. */
const account = (k: number) => [id(k), `acc${k}`, `acc${k}`, `Acc ${k}`, null, null, false, true, false, true, 10]
const scan = (k: number, follows: number[]) => ['2026-11-21', '2026-11-21 09:00:00', id(k), follows.map(id)]

/** The fixture with Proj (4) following `follows` instead of its own list. */
function withProjFollowing(rows: RawRows, follows: number[]): RawRows {
  rows['follow_scans.parquet'] = rows['follow_scans.parquet'].filter((s) => s[2] !== id(4))
  rows['follow_scans.parquet'].push(scan(4, follows))
  return rows
}

const base = buildRows(baseRaw())

const Fixture = suite('score attacks on the fixture')

Fixture('reciprocal :: an accomplice that follows only its target, followed back, echoes nothing (≤ 0.01 point)', async () => {
  const before = await base
  const rows = withProjFollowing(baseRaw(), [1, 20])
  rows['accounts.parquet'].push(account(20))
  rows['follow_scans.parquet'].push(scan(20, [4]))
  const after = await buildRows(rows)
  assert.ok(Math.abs(after.score(id(4)) - before.score(id(4))) <= 0.01, `${before.score(id(4))} → ${after.score(id(4))}`)
  const model = await modelScores(after.dir)
  assert.ok(Math.abs(model.score[idx(4)] - after.score(id(4))) <= 0.02)
})

Fixture('reciprocal :: a follow-back farm of five accounts echoes nothing (≤ 0.01 point)', async () => {
  const before = await base
  const farm = [20, 21, 22, 23, 24]
  const rows = withProjFollowing(baseRaw(), [1, ...farm])
  for (const k of farm) {
    rows['accounts.parquet'].push(account(k))
    rows['follow_scans.parquet'].push(scan(k, [4]))
  }
  const after = await buildRows(rows)
  assert.ok(Math.abs(after.score(id(4)) - before.score(id(4))) <= 0.01, `${before.score(id(4))} → ${after.score(id(4))}`)
})

Fixture('standing :: a seed-category account nobody follows endows nothing; once a trusted account follows it, its follow lifts', async () => {
  const before = await base
  assert.is(before.score(id(14)), 0)
  const rows = baseRaw()
  rows['accounts.parquet'].push(account(25))
  rows['account_categories.parquet'].push([id(25), 1])
  rows['follow_scans.parquet'].push(scan(25, [14]))
  const bought = await buildRows(rows)
  assert.is(bought.score(id(14)), 0)
  // VcOne (a seed with standing) follows the seed-category account: it now has standing of its own
  const latest = rows['follow_scans.parquet'].find((s) => s[2] === id(1) && s[0] === '2026-11-21')!
  latest[3] = [...(latest[3] as string[]), id(25)]
  const endorsed = await buildRows(rows)
  assert.ok(endorsed.score(id(14)) > 0)
  const model = await modelScores(endorsed.dir)
  assert.ok(Math.abs(model.score[endorsed.accounts.findIndex((a) => a.platform_id === id(14))] - endorsed.score(id(14))) <= 0.02)
})

Fixture('sybil :: a clique of monitored accounts nobody trusted follows gives its target nothing', async () => {
  const rows = baseRaw()
  const clique = [30, 31, 32, 33, 34]
  for (const k of clique) {
    rows['accounts.parquet'].push(account(k))
    rows['follow_scans.parquet'].push(scan(k, [...clique.filter((o) => o !== k), 14]))
  }
  const after = await buildRows(rows)
  assert.is(after.score(id(14)), 0)
  for (const k of clique) assert.is(after.score(id(k)), 0)
})

Fixture('cap :: no follower passes more than the cap (audience ≤ trusted followers)', async () => {
  const { dir } = await base
  const explained = await readParquet(path.join(dir, 'score_explanations.parquet'))
  for (const e of explained) assert.ok((e.audience as number) <= Number(e.trusted_followers) + 1e-9, JSON.stringify(e))
  assert.ok(explained.some((e) => (e.audience as number) > 0))
})

Fixture('stability :: accounts whose smart followers did not change stay put when a follower\'s standing moves', async () => {
  const before = await base
  // a new seed (26) that VcOne (1) endorses follows Proj (4): Proj's trust rises, and with it what Proj passes VcOne
  const rows = baseRaw()
  rows['accounts.parquet'].push(account(26))
  rows['account_categories.parquet'].push([id(26), 1])
  const latest = rows['follow_scans.parquet'].find((s) => s[2] === id(1) && s[0] === '2026-11-21')!
  latest[3] = [...(latest[3] as string[]), id(26)]
  rows['follow_scans.parquet'].push(scan(26, [4]))
  const after = await buildRows(rows)
  const followersOf = async (dir: string) => {
    const edges = await readParquet(path.join(dir, 'smart_followers.parquet'), 'select target_id, follower_id from t order by all')
    const map = new Map<string, string>()
    for (const e of edges) map.set(e.target_id as string, `${map.get(e.target_id as string) ?? ''} ${e.follower_id}`)
    return map
  }
  const [was, now] = [await followersOf(before.dir), await followersOf(after.dir)]
  const unchanged = [...now.keys()].filter((target) => was.get(target) === now.get(target))
  assert.ok(unchanged.includes(id(1)), 'VcOne keeps its smart followers')
  const [modelBefore, modelAfter] = [await modelScores(before.dir), await modelScores(after.dir)]
  const vcOne = (m: typeof modelBefore, accounts: typeof before.accounts) => m.inflow[accounts.findIndex((a) => a.platform_id === id(1))]
  assert.ok(vcOne(modelAfter, after.accounts) > 1.01 * vcOne(modelBefore, before.accounts), 'the trust VcOne receives moved')
  for (const target of unchanged) {
    assert.ok(Math.abs(after.score(target) - before.score(target)) <= 0.01, `${target}: ${before.score(target)} → ${after.score(target)}`)
  }
  assert.ok(after.score(id(4)) > before.score(id(4)), 'Proj gained a trusted follower')
})

Fixture('flood :: inert accounts (not monitored, never followed) change no score and no positive rank', async () => {
  const before = await base
  const raw = await writeRaw(tempDir('attack-raw'), baseRaw())
  await rewriteRaw(raw, 'accounts.parquet', withInertAccountsSql(2_000))
  const after = await build(raw)
  assert.is(after.accounts.length, before.accounts.length + 2_000)
  for (const a of before.accounts) {
    const platformId = a.platform_id as string
    assert.is(after.score(platformId), a.platform_score, String(a.username))
    if ((a.platform_score as number) > 0) assert.is(after.rank(platformId), a.rank)
  }
})

interface Truth {
  quality: Record<string, number>
  attacks: PlantedAttack[]
}

/** Average ranks (ties share their mean rank), for Spearman's correlation. */
function ranks(values: number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0])
  const out = new Array<number>(values.length)
  for (let i = 0; i < order.length; ) {
    let j = i
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++
    for (let k = i; k <= j; k++) out[order[k][1]] = (i + j) / 2
    i = j + 1
  }
  return out
}

function spearman(x: number[], y: number[]): number {
  const rx = ranks(x)
  const ry = ranks(y)
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length
  const mx = mean(rx)
  const my = mean(ry)
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < rx.length; i++) {
    sxy += (rx[i] - mx) * (ry[i] - my)
    sxx += (rx[i] - mx) ** 2
    syy += (ry[i] - my) ** 2
  }
  return sxy / Math.sqrt(sxx * syy)
}

const generated = (async () => {
  const raw = await generatedTiny()
  const truth = JSON.parse(fs.readFileSync(path.join(raw, '_truth.json'), 'utf8')) as Truth
  return { raw, truth, attacked: await build(raw) }
})()

const Generated = suite('score attacks on generated data')

Generated('attacks :: every planted kind is there, with its target and accomplices', async () => {
  const { truth } = await generated
  const kinds = new Set(truth.attacks.map((a) => a.kind))
  assert.equal([...kinds].sort(), ['bought_seed_follow', 'follow_back_farm', 'reciprocal_pair', 'sybil_clique'])
  for (const a of truth.attacks) assert.ok(a.target && a.accomplices.length > 0, a.name)
})

Generated('attacks :: bought seed follows move a target ≤ 20 points and never into the top 10%; pairs, farms and cliques ≤ 5', async () => {
  const { raw, truth, attacked } = await generated
  const clean = copyRaw(raw)
  await rewriteRaw(clean, 'follow_scans.parquet', withoutAttacksSql(truth.attacks))
  const without = await build(clean)
  const tracked = attacked.accounts.filter((a) => a.is_tracked).length
  for (const a of truth.attacks) {
    const moved = attacked.score(a.target) - without.score(a.target)
    const bound = a.kind === 'bought_seed_follow' ? 20 : 5
    assert.ok(moved <= bound, `${a.name}: ${without.score(a.target)} → ${attacked.score(a.target)}`)
    if (a.kind === 'bought_seed_follow' && without.rank(a.target) > 0.1 * tracked) {
      assert.ok(attacked.rank(a.target) > 0.1 * tracked, `${a.name}: rank ${without.rank(a.target)} → ${attacked.rank(a.target)}`)
    }
  }
})

Generated('quality :: the score follows planted audience quality more than follower count among monitored accounts', async () => {
  const { truth, attacked } = await generated
  const monitored = attacked.accounts.filter((a) => a.is_monitored)
  const score = monitored.map((a) => a.platform_score as number)
  const quality = monitored.map((a) => truth.quality[a.platform_id as string])
  const followers = monitored.map((a) => Number(a.followers_count))
  const byQuality = spearman(score, quality)
  const byFollowers = spearman(score, followers)
  assert.ok(byQuality > byFollowers, `quality ${byQuality} vs followers ${byFollowers}`)
  assert.ok(byQuality >= 0.75, `quality ${byQuality}`)
})

Generated('stability :: the accounts whose smart followers did not change move less than 0.5 point from one day to the next', async () => {
  const { raw, attacked } = await generated
  const yesterday = await build(raw, addDays(BUILD_DATE, -1))
  const followersOf = async (dir: string) => {
    const edges = await readParquet(path.join(dir, 'smart_followers.parquet'), 'select target_id, follower_id from t order by target_id, follower_id')
    const map = new Map<string, string[]>()
    for (const e of edges) map.set(e.target_id as string, [...(map.get(e.target_id as string) ?? []), e.follower_id as string])
    return map
  }
  const today = await followersOf(attacked.dir)
  const before = await followersOf(yesterday.dir)
  const moves: number[] = []
  for (const [target, followers] of today) {
    if (before.get(target)?.join() !== followers.join()) continue
    moves.push(Math.abs(attacked.score(target) - yesterday.score(target)))
  }
  assert.ok(moves.length > 100, `${moves.length} unchanged accounts`)
  const over = moves.filter((m) => m >= 0.5)
  assert.equal(over, [], `${over.length} of ${moves.length} moved 0.5 point or more`)
})

Fixture.run()
Generated.run()
