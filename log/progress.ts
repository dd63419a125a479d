/**
 * Progress of long work (a build's steps, the generator's files): a `cli-progress` bar on a terminal, with the log
 * lines of the meantime written above it, and elsewhere (a pipe, a log file, `CI` set) a `progress` log line each
 * time another tenth of the work is done. Both end with a `progress.done` log line carrying the elapsed time.
 *
 * @example const p = progress('generate', files.length); for (const f of files) { write(f); p.tick() } p.done()
 */
import cliProgress from 'cli-progress'
import { divertLines, log } from './logger.ts'

export interface Progress {
  /** `n` more units of the work are done. */
  tick(n?: number): void
  /** The work is complete: stops the bar and logs `progress.done` with the elapsed ms and `fields`. */
  done(fields?: Record<string, unknown>): void
  /** The work stopped early (it threw): stops the bar, whose redraws would otherwise keep the process alive. */
  fail(): void
}

/** Whether a bar is drawn now: the terminal holds one at a time, and work running beside it reports in log lines. */
let barDrawn = false

/** A reporter for `total` units of `task`. */
export function progress(task: string, total: number): Progress {
  const started = Date.now()
  const bar = process.stderr.isTTY && !process.env.CI && !barDrawn ? terminalBar(task, total) : undefined
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

/**
 * A bar on the terminal that holds the log lines written meanwhile and writes them above itself when it redraws
 * (`MultiBar.log`, flushed before every redraw); those of its last moments are written after it when it stops, and
 * a process that exits while the bar is drawn stops it first.
 */
function terminalBar(task: string, total: number) {
  const bars = new cliProgress.MultiBar(
    { stream: process.stderr, format: `${task} [{bar}] {percentage}% {value}/{total} {duration_formatted}` },
    cliProgress.Presets.shades_classic,
  )
  const held: string[] = []
  bars.on('redraw-pre', () => held.splice(0).forEach((line) => bars.log(line)))
  const restoreLines = divertLines((line) => held.push(line))
  const bar = bars.create(total, 0)
  barDrawn = true
  let stopped = false
  const stop = () => {
    if (stopped) return
    stopped = true
    barDrawn = false
    process.off('exit', stop)
    bars.stop()
    restoreLines()
    for (const line of held.splice(0)) process.stderr.write(line)
  }
  process.once('exit', stop)
  return { update: (count: number) => bar.update(count), stop }
}
