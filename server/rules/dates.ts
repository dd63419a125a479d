/**
 * Dates as whole UTC days since 1970-01-01 (what the snapshot stores), their parsing and formatting, and the
 * spec's timestamp formats.
 *
 * @example formatDay(utcDay(new Date('2026-11-22T23:59:00Z'))) // '2026-11-22'
 */
export const DAY_MS = 86_400_000

export const INVALID_DATE_MESSAGE = 'Invalid date format. Use YYYY-MM-DD.'

/** The UTC calendar day of an instant. */
export function utcDay(instant: Date): number {
  return Math.floor(instant.getTime() / DAY_MS)
}

/** Strict `YYYY-MM-DD` of a real calendar date → day number; anything else → null. */
export function parseDay(value: string | null | undefined): number | null {
  if (value == null || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null
  const ms = Date.parse(`${value}T00:00:00Z`)
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) return null
  return ms / DAY_MS
}

export function formatDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10)
}

/** ISO 8601 UTC with milliseconds and `Z` (e.g. `subscribed_at`). Formatted by hand: it runs once per listed row. */
export function isoUtcMillis(ms: number): string {
  const day = Math.floor(ms / DAY_MS)
  let rest = ms - day * DAY_MS
  const millis = rest % 1000
  rest = (rest - millis) / 1000
  const seconds = rest % 60
  rest = (rest - seconds) / 60
  const minutes = rest % 60
  const hours = (rest - minutes) / 60
  return `${dayString(day)}T${two(hours)}:${two(minutes)}:${two(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`
}

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`)

/** `YYYY-MM-DD` of a day, memoised (rows of one response share few days). */
const dayStrings = new Map<number, string>()
function dayString(day: number): string {
  let text = dayStrings.get(day)
  if (text === undefined) {
    if (dayStrings.size > 100_000) dayStrings.clear()
    dayStrings.set(day, (text = formatDay(day)))
  }
  return text
}

/** ISO 8601 with a `+00:00` offset and no fraction (the feed's `created_at`). */
export function isoUtcOffset(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}+00:00`
}

/** Naive server-local date-time with milliseconds and no zone (`limits.reset_time_at`). */
export function naiveLocalIsoMillis(instant: Date): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0')
  return (
    `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}` +
    `T${pad(instant.getHours())}:${pad(instant.getMinutes())}:${pad(instant.getSeconds())}.${pad(instant.getMilliseconds(), 3)}`
  )
}
