/**
 * Structured logs for the pipeline, the server and the scripts: pino writing one JSON object per line on stderr,
 * `{"level":"info","time":"<ISO 8601>","event":"build.step",...fields}`. `LOG_LEVEL` (debug, info, warn, error;
 * default info) sets the threshold. API keys never reach a log line: every serialized line goes through `redact`
 * (values that look like our keys, and the value of any `api_key` query parameter) before it is written.
 *
 * @example log.info('build.step', { step: 'stg_accounts', rows: 1200, ms: 35 })
 */
import { LRUCache } from 'lru-cache'
import { pino } from 'pino'

/**
 * A key as sent, or with any character of its `ask_` prefix percent-encoded (`ask%5F…`, `%61sk_…`: a query string
 * decodes each to the key); its body may be percent-encoded too.
 */
const KEY_PATTERN = /(?<![A-Za-z0-9])(?:a|%61)(?:s|%73)(?:k|%6[Bb])(?:_|%5[Ff])[A-Za-z0-9_%-]{8,}/g
/**
 * A query parameter inside a logged URL: its value runs to the next parameter, fragment, space or the JSON string's
 * end, through JSON's escape pairs (`\\`, `\"`), so no part of it is left after the redaction.
 */
const QUERY_PARAM_PATTERN = /([?&])([^=&#\s"\\]+)=(?:[^&#\s"\\]|\\.)*/g

/**
 * Whether a query parameter's name, as sent, is `api_key`: literally, or percent-encoded in any part (`api%5Fkey`),
 * since `URLSearchParams`, which reads the credential, decodes names.
 * @example isApiKeyParamName('api%5Fkey') // true
 */
export function isApiKeyParamName(name: string): boolean {
  if (name === 'api_key') return true
  // each of the 7 characters sent as itself or as %XX
  if (name.length < 8 || name.length > 21 || !name.includes('%')) return false
  try {
    return decodeURIComponent(name) === 'api_key'
  } catch {
    return false
  }
}

/**
 * Remove anything that looks like an API key from a string (raw keys, `api_key=` query parameters).
 * @example redact('/x?api_key=secret&page=2') // '/x?api_key=[redacted]&page=2'
 */
export function redact(text: string): string {
  return text
    // in any case too (`API_KEY=`): not a credential for the server, but what a client meant as one
    .replace(QUERY_PARAM_PATTERN, (param, separator: string, name: string) =>
      isApiKeyParamName(name.toLowerCase()) ? `${separator}${name}=[redacted]` : param,
    )
    .replace(KEY_PATTERN, '[redacted]')
}

const LEVELS = ['debug', 'info', 'warn', 'error'] as const
type Level = (typeof LEVELS)[number]
type Fields = Record<string, unknown>

/**
 * A field's value as JSON shows it: bigints (platform ids) as decimal strings, errors with their type, message and
 * stack, inside arrays and plain objects too (an object met again inside itself is `[Circular]`).
 */
function loggable(value: unknown, within: object[] = []): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Error) return pino.stdSerializers.err(value)
  if (value === null || typeof value !== 'object') return value
  if (within.includes(value)) return '[Circular]'
  if (Array.isArray(value)) return value.map((v) => loggable(v, [...within, value]))
  if (Object.getPrototypeOf(value) !== Object.prototype) return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, loggable(v, [...within, value])]))
}

const envLevel = process.env.LOG_LEVEL as Level | undefined

/** Who takes finished lines instead of stderr, the latest first (see `divertLines`). */
const sinks: Array<(line: string) => void> = []

function writeLine(line: string): void {
  const sink = sinks.at(-1)
  if (sink) sink(line)
  else process.stderr.write(line)
}

/**
 * Send every log line to `sink` instead of stderr until the returned function is called: a progress bar drawn on
 * the terminal writes them above itself.
 */
export function divertLines(sink: (line: string) => void): () => void {
  sinks.push(sink)
  return () => {
    const at = sinks.lastIndexOf(sink)
    if (at >= 0) sinks.splice(at, 1)
  }
}

const logger = pino(
  {
    level: envLevel && LEVELS.includes(envLevel) ? envLevel : 'info',
    base: null,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      level: (label) => ({ level: label }),
      log: (fields) => loggable(fields) as Fields,
    },
    // the whole serialized line, so a key is caught in any field, nested or not
    hooks: { streamWrite: redact },
  },
  // through process.stderr rather than a file descriptor of pino's own: lines stay in order with everything else
  // the process writes there, and whoever replaces process.stderr.write (a test capturing output) sees them
  { write: (line: string) => writeLine(line) },
)

/** Write one log line: `event` names what happened (`build.step`, `snapshot.load_failed`), `fields` the details. */
function emit(level: Level, event: string, fields: Fields = {}): void {
  logger[level]({ event, ...fields })
}

export const log = {
  debug: (event: string, fields?: Fields) => emit('debug', event, fields),
  info: (event: string, fields?: Fields) => emit('info', event, fields),
  warn: (event: string, fields?: Fields) => emit('warn', event, fields),
  error: (event: string, fields?: Fields) => emit('error', event, fields),
}

if (envLevel && !LEVELS.includes(envLevel)) log.warn('log.level_unknown', { LOG_LEVEL: envLevel, levels: LEVELS, meaning: 'info used' })

/** The open windows of every folded log (`foldedLog`), written out by `flushFoldedLogs`. */
const foldedLogs = new Set<LRUCache<string, FoldedLine>>()

interface FoldedLine {
  level: Level
  event: string
  fields: Fields
  written: number
  repeated: number
}

/**
 * A log of failures that can repeat on every request (a store outage): the first `burst` lines of a kind (`event` and
 * `key`) in a window of `windowMs` are written, the next ones counted, and when the window ends one more line is
 * written, the last one's fields with `repeated` (how many were left out).
 * @example const logFailure = foldedLog(10_000, 5); logFailure('error', 'request.unexpected_error', error.message, fields)
 */
export function foldedLog(windowMs: number, burst: number) {
  const open = new LRUCache<string, FoldedLine>({
    max: 1000,
    ttl: windowMs,
    ttlAutopurge: true,
    // a window that ends, is pushed out by other kinds or flushed
    dispose: (line) => {
      if (line.repeated > 0) emit(line.level, line.event, { ...line.fields, repeated: line.repeated })
    },
  })
  foldedLogs.add(open)
  return (level: Level, event: string, key: string, fields: Fields) => {
    const line = open.get(`${event}\n${key}`)
    if (line && line.written >= burst) Object.assign(line, { fields, repeated: line.repeated + 1 })
    else {
      if (line) line.written++
      else open.set(`${event}\n${key}`, { level, event, fields, written: 1, repeated: 0 })
      emit(level, event, fields)
    }
  }
}

/** Write the counts of every folded log's open windows (before the process stops). */
export function flushFoldedLogs(): void {
  for (const open of foldedLogs) open.clear()
}
