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

/** `YYYY-MM-DD` of a day, memoised (it runs once per listed row, and rows share few days). */
export function formatDay(day: number): string {
  let text = dayStrings.get(day)
  if (text === undefined) {
    if (dayStrings.size > 100_000) dayStrings.clear()
    dayStrings.set(day, (text = new Date(day * DAY_MS).toISOString().slice(0, 10)))
  }
  return text
}
const dayStrings = new Map<number, string>()

/** ISO 8601 UTC with milliseconds and `Z` (e.g. `subscribed_at`). Formatted by hand: it runs once per listed row. */
export function isoUtcMillis(ms: number): string {
  const millis = ms - Math.floor(ms / 1000) * 1000
  return `${isoUtcSeconds(ms)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`
}

/** ISO 8601 with a `+00:00` offset and no fraction (the feed's `created_at`). */
export function isoUtcOffset(ms: number): string {
  return `${isoUtcSeconds(ms)}+00:00`
}

/** `YYYY-MM-DDTHH:MM:SS` (UTC) of an instant in whole epoch milliseconds, fraction dropped. */
function isoUtcSeconds(ms: number): string {
  const day = Math.floor(ms / DAY_MS)
  const seconds = Math.floor((ms - day * DAY_MS) / 1000)
  const minutes = Math.floor(seconds / 60)
  return `${formatDay(day)}T${two(Math.floor(minutes / 60))}:${two(minutes % 60)}:${two(seconds % 60)}`
}

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`)

/** Naive server-local date-time with milliseconds and no zone (`limits.reset_time_at`). */
export function naiveLocalIsoMillis(instant: Date): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0')
  return (
    `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}` +
    `T${pad(instant.getHours())}:${pad(instant.getMinutes())}:${pad(instant.getSeconds())}.${pad(instant.getMilliseconds(), 3)}`
  )
}
