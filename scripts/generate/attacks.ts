/**
 * Sizes of the planted attacks as the generator's SQL variables (sql/entities.sql lays out the accomplices,
 * sql/follow_graph.sql wires them). Accomplices are monitored structure accounts nobody else follows; those carrying a
 * seed category sell their follow, the others form pairs, farms and cliques. Categories are drawn like any monitored
 * account's (about 30% carry a seed category), so the layout reserves enough of each kind with room to spare.
 */
import type { Scale } from './scales.ts'

/** Accomplice accounts to lay out for a scale's attacks. */
export function attackAccomplices(scale: Scale): number {
  const a = scale.attacks
  const plain = a.reciprocalPairs + a.followBackFarms * a.farmSize + a.sybilCliques * a.cliqueSize
  return Math.ceil(a.boughtSeedFollows / 0.2 + plain / 0.6)
}

export function attackVariables(scale: Scale): Record<string, number> {
  const a = scale.attacks
  return {
    n_accomplices: attackAccomplices(scale),
    n_bought_seed: a.boughtSeedFollows,
    n_pairs: a.reciprocalPairs,
    n_fb_farms: a.followBackFarms,
    fb_farm_size: a.farmSize,
    n_cliques: a.sybilCliques,
    clique_size: a.cliqueSize,
  }
}

/** A planted attack as `_truth.json` lists it. */
export interface PlantedAttack {
  name: string
  kind: 'bought_seed_follow' | 'reciprocal_pair' | 'follow_back_farm' | 'sybil_clique'
  target: string
  accomplices: string[]
  /** YYYY-MM-DD: the day its follows appear */
  since: string
}

/**
 * The SQL that rewrites follow_scans.parquet (`t`) without the attacks: the accomplices' scans are dropped and their
 * ids leave every following list (the targets' follow-backs, the cliques' follows of each other).
 */
export function withoutAttacksSql(attacks: PlantedAttack[]): string {
  const accomplices = attacks.flatMap((a) => a.accomplices).map((id) => `${id}::ubigint`)
  if (accomplices.length === 0) return 'select * from t'
  const list = `[${accomplices.join(', ')}]`
  return `select * replace (list_filter(following_ids, x -> not list_contains(${list}, x)) as following_ids)
          from t where not list_contains(${list}, account_id)`
}

/** The SQL that appends `count` inert accounts (not monitored, never followed, no follows) to accounts.parquet (`t`). */
export function withInertAccountsSql(count: number): string {
  return `select * from t union all
          select (1950000000000000000 + i)::ubigint, 'inert' || i, 'inert' || i, 'Inert ' || i, null, null, false,
                 true, false, false, (i % 97)::bigint
          from range(${count}) r(i)`
}
