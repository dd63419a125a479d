/**
 * The platform score (docs/score.md): trust propagated from category seeds over the smart follow graph, in two
 * passes (the second endows each seed by the standing the first gave it), with a cap on what one follower passes
 * and no echo along reciprocal follows. The score counts an account's trusted followers (the smart followers
 * holding trust they did not get from it, each as one) against the size of its whole audience (its follower count,
 * the median of the last 30 days), on an absolute log scale 0..1000. The propagation is SQL (int_score_*.sql,
 * int_scores.sql); this module holds its parameters and runs the passes.
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import { log } from '../log/logger.ts'
import { queryValue, runSqlFile, setVariables } from './duckdb.ts'
import { SCORE_CONTRIBUTIONS, SCORE_INPUTS, SCORE_ITERATION, SCORE_STANDING, SCORE_START, SCORES } from './models.ts'

/**
 * Fixed-point integers per seed unit (trust) and per fully trusted follower (weights): sums of integer shares and
 * weights are exact, so the score is deterministic.
 */
const UNIT = 1_000_000_000

export const SCORE_PARAMS = {
  algorithm:
    'standing-weighted trustrank: two passes, saturating follower cap, no echo on reciprocal follows; '
    + 'score = log of the count of trusted followers (holding trust they did not get from the account) over a power '
    + 'of the follower count',
  /** share of trust passed along follows each step; 1 - alpha returns to the seeds */
  alpha: 0.85,
  /**
   * most propagation steps per pass; there are two passes (standing, then score). A pass stops earlier at the step
   * that changes nothing (a fixed point: every further step would repeat it).
   */
  iterations: 20,
  /** Venture Capitals, Founders, Exchanges, Auditors: their smart members are the seeds */
  seed_categories: [1, 2, 4, 5],
  /** a seed's endowment in the second pass is 1 - exp(-standing / full_standing) seed units (standing: first-pass inflow) */
  full_standing: 0.005,
  /** most one follower passes to one account per step, in seed units: share = cap · (1 - exp(-raw / cap)) */
  follower_cap: 0.0001,
  /**
   * a follower's weight in an account's score: 1 when the trust it holds (seed units), less what the account passed
   * it (a follow-back echoes nothing), is at least trusted_share, else 0. One trust unit: a follower holding any trust
   * counts as one trusted follower for every account it follows, however thinly it spreads its trust, so a weight
   * moves only when trust starts or stops reaching the follower
   */
  trusted_share: 1e-9,
  /**
   * the audience is divided by (1 + size_followers / size_prior)^size_exponent, size_followers = the median of the
   * account's follower counts over the last size_days days (its profile count when none)
   */
  size_prior: 100,
  size_exponent: 0.35,
  size_days: 30,
  /**
   * score = min(1000, 1000 · ln(1 + audience / size_divisor) / ln(1 + scale_full_followers)), audience = the sum of
   * the weights
   */
  scale_full_followers: 1000,
  /** trust is an integer count of 1e-9 seed units, a weight an integer count of 1e-9 trusted followers */
  trust_unit: 1 / UNIT,
}

export type StepRunner = (layer: string, model: string, label?: string) => Promise<void>

/**
 * Run the score models for the build_date already set: inputs, the standing pass, the score pass, each follower's
 * contribution, int_scores.
 */
export async function runScore(conn: DuckDBConnection, runStep: StepRunner): Promise<void> {
  const p = SCORE_PARAMS
  await setVariables(conn, {
    score_alpha: p.alpha,
    score_seed_categories: p.seed_categories,
    score_unit: UNIT,
    score_full_standing: Math.round(p.full_standing * UNIT),
    score_cap: Math.round(p.follower_cap * UNIT),
    score_trusted_share: Math.round(p.trusted_share * UNIT),
    score_scale_full: p.scale_full_followers,
    score_size_prior: p.size_prior,
    score_size_exponent: p.size_exponent,
    score_size_days: p.size_days,
  })
  for (const model of SCORE_INPUTS) await runStep('intermediate', model)
  await propagate(conn, 'standing')
  await runSqlFile(conn, `intermediate/${SCORE_STANDING}.sql`)
  await propagate(conn, 'score')
  await runStep('intermediate', SCORE_CONTRIBUTIONS)
  await runStep('intermediate', SCORES)
}

async function propagate(conn: DuckDBConnection, pass: string): Promise<void> {
  const started = Date.now()
  await runSqlFile(conn, `intermediate/${SCORE_START}.sql`)
  let steps = 0
  let converged = false
  while (steps < SCORE_PARAMS.iterations && !converged) {
    await runSqlFile(conn, `intermediate/${SCORE_ITERATION}.sql`)
    steps++
    converged = Number(await queryValue(conn, 'select moved from int_score_moved')) === 0
  }
  const edges = Number(await queryValue(conn, 'select count(*) from int_smart_edges'))
  log.info('build.step', {
    step: `${SCORE_ITERATION}:${pass}`,
    layer: 'intermediate',
    iterations: steps,
    rows: edges * steps,
    ms: Date.now() - started,
  })
  // trust then reaches only the accounts within `iterations` follows of a seed (docs/score.md, Cost)
  if (!converged) log.warn('score.pass_unconverged', { pass, iterations: steps })
}
