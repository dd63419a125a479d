/**
 * Structured logs: one JSON object per line on stderr, shared by the pipeline, the server and the scripts.
 * API keys never reach a log line: values that look like keys (and `api_key` query parameters) are redacted.
 *
 * @example log.info('build.step', { step: 'stg_accounts', rows: 1200, ms: 35 })
 */

/** A key as sent, or with its `_` percent-encoded (`ask%5F…`, which a query string decodes to the key). */
const KEY_PATTERN = /\bask(?:_|%5[Ff])[A-Za-z0-9_%-]{8,}/g
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

/** Remove anything that looks like an API key from a string (raw keys, `api_key=` query parameters). */
export function redact(text: string): string {
  return text
    // in any case too (`API_KEY=`): not a credential for the server, but what a client meant as one
    .replace(QUERY_PARAM_PATTERN, (param, separator: string, name: string) =>
      isApiKeyParamName(name.toLowerCase()) ? `${separator}${name}=[redacted]` : param,
    )
    .replace(KEY_PATTERN, '[redacted]')
}

type Level = 'debug' | 'info' | 'warn' | 'error'
const LEVELS: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 }
const threshold = LEVELS[(process.env.LOG_LEVEL as Level) ?? 'info'] ?? LEVELS.info

function emit(level: Level, event: string, fields: Record<string, unknown> = {}): void {
  if (LEVELS[level] < threshold) return
  const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...fields }, (_k, v) =>
    typeof v === 'bigint' ? v.toString() : v,
  )
  process.stderr.write(redact(line) + '\n')
}

export const log = {
  debug: (event: string, fields?: Record<string, unknown>) => emit('debug', event, fields),
  info: (event: string, fields?: Record<string, unknown>) => emit('info', event, fields),
  warn: (event: string, fields?: Record<string, unknown>) => emit('warn', event, fields),
  error: (event: string, fields?: Record<string, unknown>) => emit('error', event, fields),
}

/**
 * A progress reporter for long work: a redrawn bar on a terminal, a structured log line every ~10% otherwise.
 * @example const p = progress('generate.follow_scans', total); p.tick(n); p.done()
 */
export function progress(task: string, total: number) {
  const started = Date.now()
  const tty = process.stderr.isTTY && !process.env.CI
  let done = 0
  let lastDecile = -1
  return {
    tick(n = 1) {
      done += n
      const pct = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 100
      if (tty) {
        const width = 30
        const fill = Math.round((pct / 100) * width)
        process.stderr.write(`\r${task} [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${pct}% ${done}/${total}`)
      } else if (Math.floor(pct / 10) > lastDecile) {
        lastDecile = Math.floor(pct / 10)
        emit('info', 'progress', { task, done, total, pct })
      }
    },
    done(fields: Record<string, unknown> = {}) {
      if (tty) process.stderr.write('\n')
      emit('info', 'progress.done', { task, total, ms: Date.now() - started, ...fields })
    },
  }
}
