/**
 * GET /api/v1/get_score_explanation — why an account has its score (docs/score.md): the components of the score, the
 * followers who pass it the most trust (points and share of the score, seed or not, followed back or not) and why it
 * moved over the trailing 7 and 30 days (the smart followers who arrived or left, and what each moved).
 */
import { array, boolean, id, integer, nullable, number, object, score, string } from '../openapi/schema.ts'
import { accountParameters, resolveAccount } from '../params/account.ts'
import type { ExplanationColumn, Snapshot } from '../snapshot/types.ts'
import { defineOperation } from './define.ts'

/** Followers listed per window (the largest moves); `arrived` and `left` count them all. */
export const CHANGES_LISTED = 20

const follower = {
  platform_id: id(),
  username: string(),
  name: nullable(string()),
  platform_score: score(),
}
const windowSchema = object({
  days: integer(),
  score_ago: nullable(score()),
  score_change: nullable(number()),
  arrived: integer({ minimum: 0 }),
  left: integer({ minimum: 0 }),
  arrived_points: number(),
  left_points: number(),
  other_points: nullable(number()),
  followers: array(object({ change: string({ enum: ['arrived', 'left'] }), ...follower, is_seed: boolean(), points: number() })),
})

export default defineOperation({
  name: 'get_score_explanation',
  groups: ['Scores'],
  summary:
    'Why an account has its score: its components, the followers passing it the most trust (points and share, seed or not) and the smart followers who arrived or left over the trailing 7 (`week`) and 30 (`month`) days with what each moved.',
  parameters: accountParameters('fallback'),
  response: object({
    success: { const: true },
    platform_id: id(),
    username: string(),
    platform_score: score(),
    rank: nullable(integer({ minimum: 1 })),
    components: object({
      audience: number({ minimum: 0 }),
      smart_followers: integer({ minimum: 0 }),
      trusted_followers: integer({ minimum: 0 }),
      saturated_followers: integer({ minimum: 0 }),
      reciprocal_followers: integer({ minimum: 0 }),
      seed_followers: integer({ minimum: 0 }),
      seed_share: number({ minimum: 0, maximum: 1 }),
      top_follower_share: number({ minimum: 0, maximum: 1 }),
      top3_share: number({ minimum: 0, maximum: 1 }),
      is_seed: boolean(),
      seed_standing: nullable(number()),
      seed_endowment: nullable(number()),
    }),
    top_contributors: array(object({ ...follower, points: number(), share: number(), is_seed: boolean(), reciprocal: boolean() })),
    changes: object({ week: windowSchema, month: windowSchema }),
  }),
  cache: 'default',
  handle({ query, snapshot }) {
    const idx = resolveAccount(snapshot, query, 'fallback')
    const a = snapshot.accounts
    const { components: c, contributors } = snapshot.scoreExplanations
    const value = (column: ExplanationColumn) => Number(c[column].at(idx))
    const orNull = (column: ExplanationColumn) => (Number.isNaN(value(column)) ? null : value(column))
    const first = contributors.offsets[idx]
    const end = contributors.offsets[idx + 1]
    const columns = {
      followerIdx: contributors.followerIdx.read(first, end),
      points: contributors.points.read(first, end),
      share: contributors.share.read(first, end),
      seed: contributors.followerIsSeed.read(first, end),
      reciprocal: contributors.reciprocal.read(first, end),
    }
    return {
      success: true,
      platform_id: a.platformId[idx],
      username: a.username[idx],
      platform_score: a.platformScore[idx],
      rank: a.rank[idx] || null,
      components: {
        audience: value('audience'),
        smart_followers: value('smart_followers'),
        trusted_followers: value('trusted_followers'),
        saturated_followers: value('saturated_followers'),
        reciprocal_followers: value('reciprocal_followers'),
        seed_followers: value('seed_followers'),
        seed_share: value('seed_share'),
        top_follower_share: value('top_follower_share'),
        top3_share: value('top3_share'),
        is_seed: value('is_seed') === 1,
        seed_standing: orNull('seed_standing'),
        seed_endowment: orNull('seed_endowment'),
      },
      top_contributors: Array.from(columns.followerIdx, (f, i) => ({
        ...followerOf(snapshot, f),
        points: columns.points[i],
        share: columns.share[i],
        is_seed: columns.seed[i] === 1,
        reciprocal: columns.reciprocal[i] === 1,
      })),
      changes: {
        week: changeWindow(snapshot, idx, 7, { orNull, value }),
        month: changeWindow(snapshot, idx, 30, { orNull, value }),
      },
    }
  },
})

function followerOf(snapshot: Snapshot, f: number) {
  const a = snapshot.accounts
  return { platform_id: a.platformId[f], username: a.username[f], name: a.name[f], platform_score: a.platformScore[f] }
}

type Read = { value: (column: ExplanationColumn) => number; orNull: (column: ExplanationColumn) => number | null }

/** One look-back: its summary from the components, and its largest moves from score_changes. */
function changeWindow(snapshot: Snapshot, idx: number, days: 7 | 30, { value, orNull }: Read) {
  const changes = snapshot.scoreExplanations.changes
  const first = changes.offsets[idx]
  const end = changes.offsets[idx + 1]
  const windowDays = changes.days.read(first, end)
  const count = windowDays.filter((d) => d === days).length
  const start = count === 0 ? first : first + windowDays.indexOf(days)
  const listed = Math.min(count, CHANGES_LISTED)
  const rows = {
    arrived: changes.arrived.read(start, start + listed),
    followerIdx: changes.followerIdx.read(start, start + listed),
    seed: changes.followerIsSeed.read(start, start + listed),
    points: changes.points.read(start, start + listed),
  }
  const column = (name: string) => name.replace('N', String(days)) as ExplanationColumn
  return {
    days,
    score_ago: orNull(column('score_Nd_ago')),
    score_change: orNull(column('score_change_Nd')),
    arrived: value(column('arrived_Nd')),
    left: value(column('left_Nd')),
    arrived_points: value(column('arrived_points_Nd')),
    left_points: value(column('left_points_Nd')),
    other_points: orNull(column('other_points_Nd')),
    followers: Array.from(rows.followerIdx, (f, i) => ({
      change: rows.arrived[i] === 1 ? 'arrived' : 'left',
      ...followerOf(snapshot, f),
      is_seed: rows.seed[i] === 1,
      points: rows.points[i],
    })),
  }
}
