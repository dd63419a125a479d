/**
 * The platform score (docs/score.md): an independent floating-point model of the score on the fixture
 * (test/_score-model.ts), and the properties the score promises — followers outside the smart set add nothing, a
 * follow-for-follow ring does not rise above the median, one follow from a top account lifts a small account, and the
 * result does not depend on threads.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import path from 'node:path'
import { buildSnapshot } from '../pipeline/build.ts'
import { SCORE_PARAMS } from '../pipeline/score.ts'
import { modelScores, pointsOf } from './_score-model.ts'
import fs from 'node:fs'
import { BUILD_DATE, account, baseRaw, copyRaw, flattenRaw, generatedTiny, id, idx, readParquet, rewriteRaw, scan, tempDir, writeRaw, type RawRows } from './_fixtures.ts'
import { assertSameMarts, marts } from './_state.ts'

async function scores(rows: RawRows, env: Record<string, string> = {}) {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]))
  Object.assign(process.env, env)
  try {
    const raw = await writeRaw(tempDir('score-raw'), rows)
    const { dir } = await buildSnapshot({ rawDir: raw, snapshotsDir: tempDir('score-snapshots'), date: BUILD_DATE })
    const accounts = await readParquet(path.join(dir, 'accounts.parquet'))
    return { dir, accounts, score: (k: number) => accounts[idx(k)].platform_score as number, rank: (k: number) => accounts[idx(k)].rank as number }
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
}

const base = scores(baseRaw())

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)]
}

const Score = suite('score')

Score('score :: equals an independent floating-point model of the two passes over the smart follow graph', async () => {
  const { dir, accounts } = await base
  const model = await modelScores(dir)
  accounts.forEach((a, i) =>
    assert.ok(Math.abs((a.platform_score as number) - model.score[i]) <= 0.02, `${a.username}: ${a.platform_score} vs ${model.score[i]}`))
  assert.ok(accounts.some((a) => (a.platform_score as number) > 0))
})

Score('score :: the scale is absolute: one fully trusted follower scores 1000 · ln 2 / ln(1 + scale_full_followers)', () => {
  assert.ok(Math.abs(pointsOf(1) - (1000 * Math.log(2)) / Math.log(1 + SCORE_PARAMS.scale_full_followers)) < 1e-9)
  assert.is(pointsOf(SCORE_PARAMS.scale_full_followers), 1000)
  assert.is(pointsOf(SCORE_PARAMS.scale_full_followers * 10), 1000)
})

Score('score :: suspended and inactive followers add nothing', async () => {
  const { accounts } = await base
  const rows = baseRaw()
  rows['follow_scans.parquet'] = rows['follow_scans.parquet'].filter((s) => s[2] !== id(8) && s[2] !== id(9))
  const without = await scores(rows)
  assert.equal(without.accounts.map((a) => a.platform_score), accounts.map((a) => a.platform_score))
})

Score('score :: a follow-for-follow ring without reputable inbound follows stays at or below the median', async () => {
  const { accounts, score } = await base
  const tracked = accounts.filter((a) => a.is_tracked).map((a) => a.platform_score as number)
  assert.ok(score(10) <= median(tracked) && score(11) <= median(tracked))
  // a bigger ring: 10, 11 and 14 (now monitored) all follow each other
  const rows = baseRaw()
  const ring = [10, 11, 14]
  for (const a of rows['accounts.parquet']) if (a[0] === id(14)) a[9] = true
  rows['follow_scans.parquet'] = rows['follow_scans.parquet'].filter((s) => s[2] !== id(10) && s[2] !== id(11))
  for (const k of ring) rows['follow_scans.parquet'].push(['2026-11-20', '2026-11-20 08:00:00', id(k), ring.filter((o) => o !== k).map(id)])
  const big = await scores(rows)
  const bigTracked = big.accounts.filter((a) => a.is_tracked).map((a) => a.platform_score as number)
  for (const k of ring) assert.ok(big.score(k) <= median(bigTracked), `ring member ${k}`)
})

Score('score :: one follow from a top account lifts a small account', async () => {
  const { score, rank } = await base
  assert.is(score(14), 0)
  const rows = baseRaw()
  const latest = rows['follow_scans.parquet'].find((s) => s[2] === id(1) && s[0] === '2026-11-21')!
  latest[3] = [...(latest[3] as string[]), id(14)]
  const lifted = await scores(rows)
  assert.ok(lifted.score(14) > 0)
  assert.ok(lifted.rank(14) < rank(14))
})

/**
 * Proj (trusted) follows a chain's first link; each link follows the next one and the same 19 fillers, so the trust a
 * link passes on shrinks about twentyfold per link: the fourth link (37) holds a few units and passes each account it
 * follows less than one.
 */
const chain = [34, 35, 36, 37, 38]
const thin = idx(37)
function chainRows(): RawRows {
  const rows = baseRaw()
  const fillers = Array.from({ length: 19 }, (_, i) => 15 + i)
  for (const k of [...fillers, ...chain, 39]) rows['accounts.parquet'].push(account(k, `Link${k}`, null, {}, 10))
  const proj = rows['follow_scans.parquet'].find((s) => s[2] === id(4))!
  proj[3] = [...(proj[3] as string[]), id(chain[0])]
  chain.forEach((k, i) => rows['follow_scans.parquet'].push(scan(k, '2026-11-10', [chain[i + 1] ?? 39, ...fillers])))
  return rows
}
const chained = scores(chainRows())

Score('score :: a follower holding trust counts for every account it follows, however thinly it spreads it', async () => {
  const { dir, score } = await chained
  const model = await modelScores(dir)
  const unfloored = SCORE_PARAMS.follower_cap * (1 - Math.exp(-(SCORE_PARAMS.alpha * model.trust[thin]) / model.outdegree[thin] / SCORE_PARAMS.follower_cap))
  assert.ok(model.trust[thin] >= SCORE_PARAMS.trusted_share && unfloored < SCORE_PARAMS.trusted_share, `link 37 passes ${unfloored} seed units`)
  // the fifth link counts it as a trusted follower although it received nothing, so it passes nothing on: its
  // own follow (39) gains nothing
  const contributors = await readParquet(path.join(dir, 'score_contributors.parquet'), `select follower_idx from t where account_idx = ${idx(38)}`)
  assert.equal(contributors.map((c) => c.follower_idx), [thin])
  assert.ok(score(38) > 0)
  assert.is(score(38), model.score[idx(38)])
  assert.is(score(39), 0)
})

Score('score :: a barely trusted account passes its accomplices nothing to give on, spread or followed back', async () => {
  // link 37 (a few units) follows ten accomplices, which follow 50 only; or ten accomplices follow 37 and each other,
  // and 37 follows them back
  const accomplices = Array.from({ length: 10 }, (_, i) => 40 + i)
  const spread = chainRows()
  const clique = chainRows()
  for (const rows of [spread, clique]) {
    for (const k of [...accomplices, 50]) rows['accounts.parquet'].push(account(k, `Mate${k}`, null, {}, 10))
    const thinScan = rows['follow_scans.parquet'].find((s) => s[2] === id(37))!
    thinScan[3] = [...(thinScan[3] as string[]), ...accomplices.map(id)]
  }
  for (const k of accomplices) {
    spread['follow_scans.parquet'].push(scan(k, '2026-11-10', [50]))
    clique['follow_scans.parquet'].push(scan(k, '2026-11-10', [37, ...accomplices.filter((o) => o !== k)]))
  }
  const fanned = await scores(spread)
  assert.ok(accomplices.every((k) => fanned.score(k) > 0), 'each accomplice counts 37 as a trusted follower')
  assert.is(fanned.score(50), 0)
  const returned = await scores(clique)
  assert.is(returned.score(37), (await chained).score(37))
})

Score('score :: quality, not size: the same trusted followers score less against more followers (the median of 30 days of counts)', async () => {
  const { dir, score } = await base
  const model = await modelScores(dir)
  const proj = idx(4)
  // Proj's counts on 11-01, 11-16, 11-20 and 11-22 (all within the 30 days ending 11-22): median 1,125
  assert.is(model.sizeFollowers[proj], 1125)
  const tenfold = baseRaw()
  for (const c of tenfold['follower_counts.parquet']) if (c[1] === id(4)) c[2] = (c[2] as number) * 10
  const bigger = await scores(tenfold)
  assert.ok(bigger.score(4) < score(4), `${score(4)} → ${bigger.score(4)}`)
  assert.ok(Math.abs(bigger.score(4) - pointsOf(model.audience[proj], 11250)) <= 0.02, `${bigger.score(4)}`)
  // a count outside the 30 days is not read
  const old = baseRaw()
  old['follower_counts.parquet'].push(['2026-10-23', id(4), 5_000_000])
  assert.is((await scores(old)).score(4), score(4))
})

Score('score :: a one-day burst of followers moves the score as the median of the counts moves, not by the burst', async () => {
  const { dir, score } = await base
  const model = await modelScores(dir)
  const burst = baseRaw()
  burst['follower_counts.parquet'].push(['2026-11-21', id(4), 1_000_000])
  const after = await scores(burst)
  // counts 1,000, 1,100, 1,150, 1,000,000, 1,200: median 1,150
  assert.ok(Math.abs(after.score(4) - pointsOf(model.audience[idx(4)], 1150)) <= 0.02, `${after.score(4)}`)
  assert.ok(Math.abs(after.score(4) - score(4)) < 0.5, `${score(4)} → ${after.score(4)}`)
  assert.ok(pointsOf(model.audience[idx(4)], 1_000_000) < score(4) - 50, 'the burst itself would weigh')
})

Score('score :: the same with one thread or several (integer trust sums), and so is every mart', async () => {
  const { accounts, dir } = await base
  // `npm test` builds with one thread (test/run.sh): here with four, else with one
  const other = await scores(baseRaw(), { PIPELINE_THREADS: process.env.PIPELINE_THREADS === '1' ? '4' : '1' })
  assert.equal(other.accounts.map((a) => [a.platform_score, a.rank]), accounts.map((a) => [a.platform_score, a.rank]))
  assertSameMarts(await marts(other.dir), await marts(dir))
})

/** Build a raw folder and return each account's score and rank by platform_id. */
async function scoresOf(rawDir: string) {
  const { dir } = await buildSnapshot({ rawDir, snapshotsDir: tempDir('generated-snapshots'), date: BUILD_DATE })
  const accounts = await readParquet(path.join(dir, 'accounts.parquet'))
  const byId = new Map(accounts.map((a) => [a.platform_id as string, a]))
  const tracked = accounts.filter((a) => a.is_tracked).map((a) => a.platform_score as number)
  return {
    score: (platformId: string) => byId.get(platformId)!.platform_score as number,
    rank: (platformId: string) => byId.get(platformId)!.rank as number,
    all: accounts.map((a) => a.platform_score),
    median: median(tracked),
  }
}

interface Truth {
  top_accounts: string[]
  bot_farm_targets: string[]
  bot_farm_members: string[]
  ring_members: string[]
  gems: string[]
  lonely_small: string[]
}

const generated = (async () => {
  const raw = await flattenRaw(await generatedTiny())
  const truth = JSON.parse(fs.readFileSync(path.join(raw, '_truth.json'), 'utf8')) as Truth
  return { raw, truth, base: await scoresOf(raw) }
})()

const list = (ids: string[]) => ids.map((x) => `${x}::ubigint`).join(', ')

const Generated = suite('score on generated data')

Generated('generated :: bot farm followers add nothing (every score identical without their follow lists)', async () => {
  const { raw, truth, base } = await generated
  const withoutBots = copyRaw(raw)
  await rewriteRaw(withoutBots, 'follow_scans.parquet', `select * from t where account_id not in (${list(truth.bot_farm_members)})`)
  assert.equal((await scoresOf(withoutBots)).all, base.all)
})

Generated('generated :: a follow-for-follow ring without reputable members or inbound follows stays at or below the median', async () => {
  const { truth, base } = await generated
  assert.ok(truth.ring_members.length >= 3)
  for (const member of truth.ring_members) assert.ok(base.score(member) <= base.median, `ring member ${member}`)
})

Generated('generated :: one follow from a top account lifts a small account', async () => {
  const { raw, truth, base } = await generated
  const [top] = truth.top_accounts
  const small = truth.lonely_small.reduce((a, b) => (base.score(a) <= base.score(b) ? a : b))
  const lifted = copyRaw(raw)
  await rewriteRaw(lifted, 'follow_scans.parquet', `
    select * replace (
      if(account_id = ${top}::ubigint and scan_date = (select max(scan_date) from t where account_id = ${top}::ubigint and scan_date <= DATE '${BUILD_DATE}'),
         list_append(following_ids, ${small}::ubigint), following_ids) as following_ids)
    from t`)
  const after = await scoresOf(lifted)
  assert.ok(after.score(small) > base.score(small), `${base.score(small)} → ${after.score(small)}`)
  assert.ok(after.rank(small) < base.rank(small))
})

Generated('generated :: gems (small, followed by top accounts) outrank bot farm targets (big, followed by bots)', async () => {
  const { truth, base } = await generated
  const worstGem = Math.min(...truth.gems.map(base.score))
  const bestTarget = Math.max(...truth.bot_farm_targets.map(base.score))
  assert.ok(worstGem > bestTarget, `${worstGem} vs ${bestTarget}`)
})

Score.run()
Generated.run()
