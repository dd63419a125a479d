import type { Plan, RatePeriod } from './types.ts'

export const DEFAULT_PLAN: Plan = { monthlyQuota: 10000, rate: '1000/minute' }

/** The monthly quota lives in a 30-day window that starts with the first counted call. */
export const QUOTA_WINDOW_MS = 30 * 24 * 60 * 60 * 1000

export const PERIOD_MS: Record<RatePeriod, number> = {
  second: 1000,
  minute: 60 * 1000,
  hour: 60 * 60 * 1000,
  day: 24 * 60 * 60 * 1000,
}

export interface Rate {
  total: number
  period: RatePeriod
}

/**
 * Parse a plan's rate string; an unknown unit falls back to `minute` as the spec says. Units are read without regard
 * to case or a plural `s` (`20/Hours` is 20 per hour, not an unknown unit).
 * @example parseRate('1000/minute') // { total: 1000, period: 'minute' }
 * @example parseRate('5/fortnight') // { total: 5, period: 'minute' }
 */
export function parseRate(rate: string): Rate {
  const { total, unit } = readRate(rate)
  return { total, period: unit ?? 'minute' }
}

/** The unit a rate string names, or null when it names none of second, minute, hour and day (it counts per minute). */
export function rateUnit(rate: string): RatePeriod | null {
  return readRate(rate).unit
}

function readRate(rate: string): { total: number; unit: RatePeriod | null } {
  const match = /^\s*(\d+)\s*(?:\/\s*(\w*)\s*)?$/.exec(rate)
  if (!match) throw new RangeError(`Invalid rate "${rate}": expected <requests>/<second|minute|hour|day>`)
  const singular = (match[2] ?? '').toLowerCase().replace(/s$/, '')
  return { total: Number(match[1]), unit: Object.hasOwn(PERIOD_MS, singular) ? (singular as RatePeriod) : null }
}

/** Fill a partial plan from `base` and check it, so bad plans are refused when set rather than when used. */
export function resolvePlan(plan: Partial<Plan>, base: Plan = DEFAULT_PLAN): Plan {
  const resolved = { monthlyQuota: plan.monthlyQuota ?? base.monthlyQuota, rate: plan.rate ?? base.rate }
  if (!Number.isSafeInteger(resolved.monthlyQuota) || resolved.monthlyQuota < 0) {
    throw new RangeError(`Invalid monthly quota ${resolved.monthlyQuota}: expected an integer ≥ 0`)
  }
  parseRate(resolved.rate)
  return resolved
}
