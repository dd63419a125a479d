/**
 * An independent floating-point model of the platform score (docs/score.md), for the score tests: plain numbers
 * where the pipeline uses fixed-point integers in SQL, one loop over edges where the pipeline joins tables. It reads
 * a published snapshot (smart_followers, account_categories, accounts, followers_count_history, manifest) and returns
 * every account's score and the share each follower passes it, so the tests compare the SQL with a computation that
 * does not share its code.
 */
import fs from 'node:fs'
import path from 'node:path'
import { SCORE_PARAMS } from '../pipeline/score.ts'
import { readParquet } from './_fixtures.ts'

export interface ScoreModel {
  score: number[]
  /** the sum of the followers' weights, in trusted followers */
  audience: number[]
  /** the follower count the audience is weighed against: the median of the last size_days days' counts */
  sizeFollowers: number[]
  inflow: number[]
  /** trust after the last step: (1 - alpha) · endowment + inflow */
  trust: number[]
  /** smart follows each account makes */
  outdegree: number[]
  /** share[target] = Map(follower → what it passed in the last step) */
  shares: Map<number, number>[]
  /** weights[target] = Map(follower → its weight in the target's score) */
  weights: Map<number, number>[]
  seeds: Set<number>
  endowment: Map<number, number>
}

interface Edge {
  from: number
  to: number
  reciprocal: boolean
}

/** What an audience is divided by, for an account of `followers` followers. */
export function divisorOf(followers: number): number {
  return (1 + followers / SCORE_PARAMS.size_prior) ** SCORE_PARAMS.size_exponent
}

/** The score's map from an audience (the sum of the followers' weights) to points, before rounding. */
export function pointsOf(audience: number, followers = 0): number {
  const scaled = audience / divisorOf(followers)
  return Math.min(1000, (1000 * Math.log(1 + scaled)) / Math.log(1 + SCORE_PARAMS.scale_full_followers))
}

/** The middle value of `values` (the mean of the two middle ones for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** Each account's median follower count over the size_days days ending on the build date, else its followers_count. */
async function sizeFollowers(dir: string, accounts: Record<string, unknown>[]): Promise<number[]> {
  const { build_date: date } = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'))
  const counts = await readParquet(path.join(dir, 'followers_count_history', '*', 'data.parquet'),
    `select platform_id::varchar as id, followers_count::double as n from t
     where date <= DATE '${date}' and date > DATE '${date}' - ${SCORE_PARAMS.size_days}`)
  const byId = new Map<string, number[]>()
  for (const c of counts) {
    const series = byId.get(c.id as string) ?? []
    series.push(c.n as number)
    byId.set(c.id as string, series)
  }
  return accounts.map((a) => {
    const series = byId.get(String(a.platform_id))
    return series ? median(series) : Number(a.followers_count ?? 0)
  })
}

/** A follower's weight in the score of an account, from the trust (seed units) it holds that it did not get from it. */
export function weightOf(trust: number): number {
  return trust >= SCORE_PARAMS.trusted_share ? 1 : 0
}

/** What a follower with `trust` and `outdegree` passes to each account it follows, floored to whole trust units. */
export function shareOf(trust: number, outdegree: number): number {
  const raw = (SCORE_PARAMS.alpha * trust) / outdegree
  const units = 1 / SCORE_PARAMS.trust_unit
  return Math.floor(units * SCORE_PARAMS.follower_cap * (1 - Math.exp(-raw / SCORE_PARAMS.follower_cap))) / units
}

function propagate(n: number, edges: Edge[], seed: number[]) {
  const outdegree = new Array(n).fill(0)
  for (const e of edges) outdegree[e.from]++
  let trust = [...seed]
  let inflow: number[] = new Array(n).fill(0)
  let echo = new Map<string, number>()
  let shares: Map<number, number>[] = []
  // what each follower held in the last step that it did not get from the account it passes to
  let own: Map<number, number>[] = []
  for (let i = 0; i < SCORE_PARAMS.iterations; i++) {
    inflow = new Array(n).fill(0)
    shares = Array.from({ length: n }, () => new Map<number, number>())
    own = Array.from({ length: n }, () => new Map<number, number>())
    const nextEcho = new Map<string, number>()
    for (const e of edges) {
      const back = e.reciprocal ? (echo.get(`${e.to}>${e.from}`) ?? 0) : 0
      const share = shareOf(Math.max(0, trust[e.from] - back), outdegree[e.from])
      inflow[e.to] += share
      shares[e.to].set(e.from, share)
      own[e.to].set(e.from, trust[e.from] - back)
      if (e.reciprocal) nextEcho.set(`${e.from}>${e.to}`, share)
    }
    echo = nextEcho
    trust = seed.map((s, v) => (1 - SCORE_PARAMS.alpha) * s + inflow[v])
  }
  return { inflow, shares, own, trust, outdegree }
}

/** The score of every account of a snapshot folder, by account_idx. */
export async function modelScores(dir: string): Promise<ScoreModel> {
  const accounts = await readParquet(path.join(dir, 'accounts.parquet'))
  const follows = await readParquet(path.join(dir, 'smart_followers.parquet'), 'select follower_idx as f, target_idx as t from t')
  const categories = await readParquet(path.join(dir, 'account_categories.parquet'))
  const n = accounts.length
  const pairs = new Set(follows.map((e) => `${e.f}>${e.t}`))
  const edges: Edge[] = follows.map((e) => ({
    from: e.f as number,
    to: e.t as number,
    reciprocal: pairs.has(`${e.t}>${e.f}`),
  }))
  const seeds = new Set(
    categories
      .filter((c) => SCORE_PARAMS.seed_categories.includes(c.category_id as number) && accounts[c.account_idx as number].is_smart)
      .map((c) => c.account_idx as number),
  )
  const standing = propagate(n, edges, accounts.map((_, i) => (seeds.has(i) ? 1 : 0)))
  const endowment = new Map([...seeds].map((s) => [s, 1 - Math.exp(-standing.inflow[s] / SCORE_PARAMS.full_standing)]))
  const { inflow, shares, own, trust, outdegree } = propagate(n, edges, accounts.map((_, i) => endowment.get(i) ?? 0))
  const weights = own.map((m) => new Map([...m].map(([f, held]) => [f, weightOf(held)])))
  const audience = weights.map((m) => [...m.values()].reduce((a, b) => a + b, 0))
  const size = await sizeFollowers(dir, accounts)
  const score = audience.map((x, i) => Math.round(pointsOf(x, size[i]) * 100) / 100)
  return { score, audience, sizeFollowers: size, inflow, trust, outdegree, shares, weights, seeds, endowment }
}
