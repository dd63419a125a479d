/**
 * Time windows of the history, lists and mentions operations: the single event day (`date` of friendshipHistory/*),
 * the `days` choice 1|7|30 (smart follows, trending, top researched, mentioners) and the mentioners' inclusive UTC
 * date range.
 *
 * @example readEventDay(new URLSearchParams('date=2026-11-20')) // day number of 2026-11-20; throws on '20-11-2026'
 * @example readDays(new URLSearchParams('days=abc'), DAYS_MESSAGE) // 7
 * @example readMentionWindow(new URLSearchParams('date_from=2026-11-01&date_to=2026-11-02'), now).echo // { date_from, date_to }
 */
import { ApiError } from '../errors.ts'
import { date, integer, type Parameter } from '../openapi/schema.ts'
import { DAY_MS, INVALID_DATE_MESSAGE, parseDay } from './dates.ts'

/** A query value, trimmed; null when absent or blank (a blank value counts as not sent). */
function readText(query: URLSearchParams, name: string): string | null {
  const value = query.get(name)?.trim()
  return value ? value : null
}

/** `date` (YYYY-MM-DD) → its day number; null when not sent; any other format fails with the spec's message. */
export function readEventDay(query: URLSearchParams): number | null {
  const value = readText(query, 'date')
  if (value === null) return null
  const day = parseDay(value)
  if (day === null) throw new ApiError('invalid_params', INVALID_DATE_MESSAGE)
  return day
}

export const eventDayParameter: Parameter = {
  name: 'date',
  description: `Keeps events on this UTC calendar day (YYYY-MM-DD). Any other format fails with \`${INVALID_DATE_MESSAGE}\`.`,
  schema: date(),
}

export const ALLOWED_DAYS = [1, 7, 30] as const
export type Days = (typeof ALLOWED_DAYS)[number]
/** The schema of a `days` echoed in a response. */
export const daysSchema = () => integer({ enum: [...ALLOWED_DAYS] })
const DEFAULT_DAYS: Days = 7

/** get_mentioners words its failure differently from the other `days` operations (sic: "param" vs "params"). */
export const DAYS_MESSAGE = 'Days param is only available: 1|7|30'
const MENTIONERS_DAYS_MESSAGE = 'Days params is only available: 1|7|30'

const DECIMAL = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/

/** `days`: absent, blank or non-numeric → 7; 1, 7 or 30 → itself; any other number fails with `message`. */
export function readDays(query: URLSearchParams, message: string): Days {
  const value = readText(query, 'days')
  // decimal notation only: `0x1e`, `0b1` or `Infinity` are not numbers here, `7.5` and `1e1` are (and fail)
  const n = value !== null && DECIMAL.test(value) ? Number(value) : NaN
  if (!Number.isFinite(n)) return DEFAULT_DAYS
  if ((ALLOWED_DAYS as readonly number[]).includes(n)) return n as Days
  throw new ApiError('invalid_params', message)
}

export function daysParameter(description: string, message: string): Parameter {
  return {
    name: 'days',
    description: `${description} 1, 7 or 30; non-numeric falls back to 7; any other number fails with \`${message}\`.`,
    schema: { ...daysSchema(), default: DEFAULT_DAYS },
  }
}

/** The mentioners' range messages: the spec writes the last one without a final period, unlike `date` elsewhere. */
const RANGE_TOGETHER_MESSAGE = 'date_from and date_to must be provided together'
const RANGE_INVALID_DATE_MESSAGE = 'Invalid date format. Use YYYY-MM-DD'
const RANGE_ORDER_MESSAGE = 'date_from must be on or before date_to'

export interface MentionWindow {
  /** Inclusive bounds, epoch milliseconds. */
  startMs: number
  endMs: number
  /** What the response echoes: `days`, or the range as sent. */
  echo: { days: Days } | { date_from: string; date_to: string }
}

/**
 * `date_from` + `date_to` (inclusive UTC days) when either is sent, else the rolling `days` back from `now`.
 * Range failures, in order: only one sent, a date that does not parse, from after to.
 */
export function readMentionWindow(query: URLSearchParams, now: Date): MentionWindow {
  const from = readText(query, 'date_from')
  const to = readText(query, 'date_to')
  if (from === null && to === null) {
    const days = readDays(query, MENTIONERS_DAYS_MESSAGE)
    return { startMs: now.getTime() - days * DAY_MS, endMs: now.getTime(), echo: { days } }
  }
  if (from === null || to === null) throw new ApiError('invalid_params', RANGE_TOGETHER_MESSAGE)
  const fromDay = parseDay(from)
  const toDay = parseDay(to)
  if (fromDay === null || toDay === null) throw new ApiError('invalid_params', RANGE_INVALID_DATE_MESSAGE)
  if (fromDay > toDay) throw new ApiError('invalid_params', RANGE_ORDER_MESSAGE)
  return { startMs: fromDay * DAY_MS, endMs: (toDay + 1) * DAY_MS - 1, echo: { date_from: from, date_to: to } }
}

export const mentionWindowParameters: Parameter[] = [
  daysParameter(
    'Rolling window back from the request time, in days. Ignored when a date range is given.',
    MENTIONERS_DAYS_MESSAGE,
  ),
  {
    name: 'date_from',
    description: `First UTC day of an inclusive range (YYYY-MM-DD), sent together with \`date_to\` (else \`${RANGE_TOGETHER_MESSAGE}\`). An unparsable date fails with \`${RANGE_INVALID_DATE_MESSAGE}\`; a start after the end with \`${RANGE_ORDER_MESSAGE}\`.`,
    schema: date(),
  },
  {
    name: 'date_to',
    description: 'Last UTC day of the range, included up to its end (YYYY-MM-DD). Sent together with `date_from`.',
    schema: date(),
  },
]
