/**
 * The `period` of the history operations: a window of days ending today (UTC).
 *
 * @example readPeriodDays(new URLSearchParams('period=1W')) // 7
 */
import { string, type Parameter } from '../openapi/schema.ts'

/** `period` value (lower case) → days in the window; `all` = the whole stored history. */
const PERIOD_DAYS = new Map<string, number>([
  ['3d', 3],
  ['7d', 7],
  ['1w', 7],
  ['30d', 30],
  ['1m', 30],
  ['180d', 180],
  ['6m', 180],
  ['365d', 365],
  ['1y', 365],
  ['all', Infinity],
])
const DEFAULT_PERIOD_DAYS = 30

/** `period`, case-insensitive; absent or unrecognised → 30 days. */
export function readPeriodDays(query: URLSearchParams): number {
  return PERIOD_DAYS.get(query.get('period')?.trim().toLowerCase() ?? '') ?? DEFAULT_PERIOD_DAYS
}

export const periodParameter: Parameter = {
  name: 'period',
  description:
    'Case-insensitive. `1w` = 7 days, `1m` = 30, `6m` = 180, `1y` = 365, `all` = whole history; the window is today (UTC) and the previous N-1 days. Unrecognised values fall back to 30 days.',
  schema: { ...string({ enum: [...PERIOD_DAYS.keys()] }), default: '30d' },
}
