/**
 * The platform score: TrustRank from curated category seeds over the smart follow graph (docs/score.md).
 * The propagation is SQL (int_score_seeds, int_score_iteration, int_scores); this module holds its parameters and
 * runs the fixed number of iterations.
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import { log } from '../log/logger.ts'
import { queryValue, runSqlFile, setVariables } from './duckdb.ts'
import { SCORE_INPUTS, SCORE_ITERATION, SCORES } from './models.ts'

export const SCORE_PARAMS = {
  algorithm: 'trustrank',
  /** share of trust passed along follows each iteration; 1 - alpha returns to the seeds */
  alpha: 0.85,
  iterations: 20,
  /** Venture Capitals, Founders, Exchanges, Auditors: their smart members are the trusted seeds */
  seed_categories: [1, 2, 4, 5],
  /** trust is an integer in units of 1e-15 of the total, so sums are exact and deterministic */
  trust_unit: 1e-15,
  scale: '1000 * ln(1 + trust*N) / ln(1 + max_trust*N), N = accounts in the snapshot, rounded to 2 decimals',
}

export type StepRunner = (layer: string, model: string, label?: string) => Promise<void>

/** Run the score models for the build_date already set: inputs, the iterations, then int_scores. */
export async function runScore(conn: DuckDBConnection, runStep: StepRunner): Promise<void> {
  await setVariables(conn, {
    score_alpha: SCORE_PARAMS.alpha,
    score_seed_categories: SCORE_PARAMS.seed_categories,
  })
  for (const model of SCORE_INPUTS) await runStep('intermediate', model)
  const started = Date.now()
  for (let i = 0; i < SCORE_PARAMS.iterations; i++) await runSqlFile(conn, `intermediate/${SCORE_ITERATION}.sql`)
  const edges = Number(await queryValue(conn, 'select count(*) from int_smart_edges'))
  log.info('build.step', {
    step: SCORE_ITERATION,
    layer: 'intermediate',
    iterations: SCORE_PARAMS.iterations,
    rows: edges * SCORE_PARAMS.iterations,
    ms: Date.now() - started,
  })
  await runStep('intermediate', SCORES)
}
