/**
 * GET /api/v1/get_score_explanation — why an account has its score (docs/score.md): the components of the score, the
 * followers who count the most toward it (points and share of the score, seed or not, followed back or not) and why it
 * moved over the trailing 7 and 30 days (the smart followers who arrived or left, those trust started or stopped
 * reaching, and what each moved).
 */
import { array, boolean, id, integer, nullable, number, object, score, string } from '../openapi/schema.ts'
import { accountParameters, resolveAccount } from '../params/account.ts'
import { SCORE_HEAD, scoreHead } from '../queries/profile.ts'
import { EXPLANATION_COMPONENTS, SCORE_CHANGE_KINDS } from '../../pipeline/serving-columns.ts'
import type { Snapshot } from '../snapshot/load.ts'
import { defineOperation } from './define.ts'

type Component = (typeof EXPLANATION_COMPONENTS)[number]
const WIDTH = EXPLANATION_COMPONENTS.length
const POSITION = new Map<string, number>(EXPLANATION_COMPONENTS.map((name, i) => [name, i]))

/** Followers listed per window (the largest moves); `arrived` and `left` count them all. */
const CHANGES_LISTED = 20

/** The score's terms: platform_score = 1000 · ln(1 + audience / size_divisor) / ln(1001), at most 1000. */
const TERMS = ['audience', 'size_followers', 'size_divisor'] as const
const COUNTS = ['smart_followers', 'trusted_followers', 'saturated_followers', 'reciprocal_followers', 'seed_followers'] as const
const SHARES = ['seed_share', 'top_follower_share', 'top3_share'] as const
const SEED = ['seed_standing', 'seed_endowment'] as const

const fields = (names: readonly string[], schema: () => Record<string, unknown>) =>
  Object.fromEntries(names.map((name) => [name, schema()]))
const follower = { platform_id: id(), username: string(), name: nullable(string()), platform_score: score() }
const windowSchema = object({
  days: integer(),
  score_ago: nullable(score()),
  score_change: nullable(number()),
  ...fields(SCORE_CHANGE_KINDS, () => nullable(integer({ minimum: 0 }))),
  ...fields(SCORE_CHANGE_KINDS.map((kind) => `${kind}_points`), () => nullable(number())),
  other_points: nullable(number()),
  followers: array(object({ change: string({ enum: [...SCORE_CHANGE_KINDS] }), ...follower, is_seed: boolean(), points: number() })),
})

export default defineOperation({
  name: 'get_score_explanation',
  groups: ['Scores'],
  summary:
    'Why an account has its score: its components, the followers who count the most toward it (points and share, seed or not) and, over the trailing 7 (`week`) and 30 (`month`) days, the smart followers who arrived, left, or stayed while trust started (`trusted`) or stopped (`untrusted`) reaching them, with what each moved.',
  parameters: accountParameters('fallback'),
  response: object({
    ...SCORE_HEAD,
    components: object({
      audience: number({ minimum: 0 }),
      size_followers: number({ minimum: 0 }),
      size_divisor: number({ minimum: 1 }),
      ...fields(COUNTS, () => integer({ minimum: 0 })),
      ...fields(SHARES, () => number({ minimum: 0, maximum: 1 })),
      is_seed: boolean(),
      ...fields(SEED, () => nullable(number())),
    }),
    top_contributors: array(object({ ...follower, points: number(), share: number(), is_seed: boolean(), reciprocal: boolean() })),
    changes: object({ week: windowSchema, month: windowSchema }),
  }),
  cache: 'default',
  handle({ query, snapshot }) {
    const idx = resolveAccount(snapshot, query, 'fallback')
    const { components, contributors } = snapshot.scoreExplanations
    // one read: the account's components (NULL is stored as NaN)
    const row = components.read(idx * WIDTH, (idx + 1) * WIDTH)
    const value = (column: Component) => row[POSITION.get(column)!]
    const orNull = (column: Component) => {
      const v = value(column)
      return Number.isNaN(v) ? null : v
    }
    const pick = (names: readonly Component[], read: typeof value | typeof orNull) =>
      Object.fromEntries(names.map((name) => [name, read(name)]))
    const [first, end] = [contributors.offsets[idx], contributors.offsets[idx + 1]]
    const points = contributors.points.read(first, end)
    const share = contributors.share.read(first, end)
    const seed = contributors.followerIsSeed.read(first, end)
    const reciprocal = contributors.reciprocal.read(first, end)
    const changes = accountChanges(snapshot, idx)
    const window = (days: 7 | 30) => {
      const column = (name: string) => name.replace('N', String(days)) as Component
      return {
        days,
        score_ago: orNull(column('score_Nd_ago')),
        score_change: orNull(column('score_change_Nd')),
        ...Object.fromEntries(SCORE_CHANGE_KINDS.map((kind) => [kind, orNull(column(`${kind}_Nd`))])),
        ...Object.fromEntries(SCORE_CHANGE_KINDS.map((kind) => [`${kind}_points`, orNull(column(`${kind}_points_Nd`))])),
        other_points: orNull(column('other_points_Nd')),
        followers: changes.filter((change) => change.days === days).slice(0, CHANGES_LISTED).map((change) => change.row),
      }
    }
    return {
      ...scoreHead(snapshot, idx),
      components: { ...pick(TERMS, value), ...pick(COUNTS, value), ...pick(SHARES, value), is_seed: value('is_seed') === 1, ...pick(SEED, orNull) },
      top_contributors: Array.from(contributors.followerIdx.read(first, end), (f, i) =>
        Object.assign(followerOf(snapshot, f), { points: points[i], share: share[i], is_seed: seed[i] === 1, reciprocal: reciprocal[i] === 1 }),
      ),
      changes: { week: window(7), month: window(30) },
    }
  },
})

/** The account's rows of score_changes (its 7-day rows, then its 30-day rows, each by |points| desc), one read per column. */
function accountChanges(snapshot: Snapshot, idx: number) {
  const changes = snapshot.scoreExplanations.changes
  const [start, end] = [changes.offsets[idx], changes.offsets[idx + 1]]
  const days = changes.days.read(start, end)
  const kind = changes.change.read(start, end)
  const seed = changes.followerIsSeed.read(start, end)
  const points = changes.points.read(start, end)
  return Array.from(changes.followerIdx.read(start, end), (f, i) => ({
    days: days[i],
    row: Object.assign({ change: SCORE_CHANGE_KINDS[kind[i]] }, followerOf(snapshot, f), { is_seed: seed[i] === 1, points: points[i] }),
  }))
}

/** A listed follower's account fields (assigned into its row, not spread into a copy: a copy serialises slower). */
function followerOf({ accounts: a }: Snapshot, f: number) {
  return { platform_id: a.platformId.at(f), username: a.username.at(f), name: a.name.at(f), platform_score: a.platformScore[f] }
}
