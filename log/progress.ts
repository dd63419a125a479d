/**
 * Progress of long work (a build's steps, the generator's files): a `cli-progress` bar on a terminal, and elsewhere
 * (a pipe, a log file, `CI` set) a `progress` log line each time another tenth of the work is done. Both end with a
 * `progress.done` log line carrying the elapsed time.
 *
 * @example const p = progress('generate', files.length); for (const f of files) { write(f); p.tick() } p.done()
 */
import cliProgress from 'cli-progress'
import { log } from './logger.ts'

export interface Progress {
  /** `n` more units of the work are done. */
  tick(n?: number): void
  /** The work is complete: stops the bar and logs `progress.done` with the elapsed ms and `fields`. */
  done(fields?: Record<string, unknown>): void
  /** The work stopped early (it threw): stops the bar, which would otherwise keep redrawing, and logs nothing. */
  fail(): void
}

/** A reporter for `total` units of `task`. */
export function progress(task: string, total: number): Progress {
  const started = Date.now()
  const bar = process.stderr.isTTY && !process.env.CI ? startBar(task, total) : undefined
  let count = 0
  let loggedTenths = -1
  return {
    tick(n = 1) {
      count += n
      if (bar) return bar.update(count)
      const pct = total > 0 ? Math.min(100, Math.floor((count / total) * 100)) : 100
      if (Math.floor(pct / 10) > loggedTenths) {
        loggedTenths = Math.floor(pct / 10)
        log.info('progress', { task, done: count, total, pct })
      }
    },
    done(fields = {}) {
      bar?.stop()
      log.info('progress.done', { task, total, ms: Date.now() - started, ...fields })
    },
    fail() {
      bar?.stop()
    },
  }
}

function startBar(task: string, total: number): cliProgress.SingleBar {
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: `${task} [{bar}] {percentage}% {value}/{total} {duration_formatted}` },
    cliProgress.Presets.shades_classic,
  )
  bar.start(total, 0)
  return bar
}
