/**
 * Nightly build CLI:
 * `npm run build -- [--raw DIR] [--date YYYY-MM-DD] [--snapshots DIR] [--state DIR] [--keep N] [--backfill N]
 * [--lookups DIR] [--rebuild [--discard-missing]] [--prune-raw]`.
 * Defaults (pipeline/build-settings.ts): raw RAW_DIR or `raw`, snapshots SNAPSHOTS_DIR or `snapshots`, state STATE_DIR
 * or `<snapshots>/state`, keep SNAPSHOT_KEEP or 7, lookups `<DATA_DIR>/lookups` (where the server records them),
 * date = today (UTC), and never later: a nightly cron names the day that just ended. The build reads the state of the
 * day before and `<raw>/<date>/` (raw days missed since the last build are replayed first); `--rebuild` folds every
 * raw day from scratch, as does a first build or a raw folder in the single-folder layout (the one-time import of
 * history). `--prune-raw` deletes the raw day folders before the date once the snapshot is published (they are folded
 * into the state).
 * Every build records its outcome in `<snapshots>/last-build.json` (pipeline/build-status.ts) for monitoring.
 * Exits 1 with the file, row and reason when the raw input is rejected, or the audit and sample rows when an audit
 * fails; `snapshots/current` is then untouched. Exits 2 with a message on a mistake in the flags or the environment.
 */
import { parseArgs } from 'node:util'
import { buildSnapshot } from '../pipeline/build.ts'
import { log } from '../log/logger.ts'
import { recordBuild } from '../pipeline/build-status.ts'
import { BuildLockedError } from '../pipeline/publish.ts'
import { buildSettingsFromEnv } from '../pipeline/build-settings.ts'
import { checkPipelineTuning } from '../pipeline/duckdb.ts'
import { isCalendarDay } from '../pipeline/raw-days.ts'

/** A mistake in the command line or the environment: a message, no stack trace, exit code 2. */
class UsageError extends Error {}

function options() {
  const defaults = buildSettingsFromEnv()
  const { values } = parseArgs({
    options: {
      raw: { type: 'string', default: defaults.rawDir },
      snapshots: { type: 'string', default: defaults.snapshotsDir },
      state: { type: 'string', default: defaults.stateDir },
      rebuild: { type: 'boolean', default: false },
      'discard-missing': { type: 'boolean', default: false },
      'prune-raw': { type: 'boolean', default: false },
      date: { type: 'string', default: new Date().toISOString().slice(0, 10) },
      keep: { type: 'string', default: String(defaults.keep) },
      backfill: { type: 'string', default: '0' },
      lookups: { type: 'string', default: defaults.lookupsDir },
      help: { type: 'boolean', default: false },
    },
    allowNegative: true,
  })
  if (values.help) {
    console.log(USAGE)
    process.exit(0)
  }
  if (!isCalendarDay(values.date)) throw new UsageError(`--date must be a real date YYYY-MM-DD, got ${values.date}`)
  // a later date would build the days up to it as gaps (nothing scanned) and commit them to the state
  const today = new Date().toISOString().slice(0, 10)
  if (values.date > today) throw new UsageError(`--date ${values.date} is after today (${today} UTC): a build takes days that have begun`)
  return {
    rawDir: values.raw,
    snapshotsDir: values.snapshots,
    stateDir: values.state,
    rebuild: values.rebuild,
    discardMissing: values['discard-missing'],
    pruneRaw: values['prune-raw'],
    date: values.date,
    keep: count('keep', values.keep, 1),
    // the score history covers 365 days: a backfill beyond them would score dates no snapshot shows
    backfillDays: count('backfill', values.backfill, 0, 365),
    lookupsDir: values.lookups,
  }
}

function count(name: string, text: string, least: number, most = Infinity): number {
  const n = Number(text)
  if (!/^-?\d+$/.test(text) || n < least) throw new UsageError(`--${name} must be an integer ≥ ${least}, got ${text}`)
  if (n > most) throw new UsageError(`--${name} must be at most ${most}, got ${text}`)
  return n
}

const USAGE = 'usage: npm run build -- [--raw DIR] [--date YYYY-MM-DD] [--snapshots DIR] [--state DIR] [--keep N] [--backfill N] [--lookups DIR] [--rebuild [--discard-missing]] [--prune-raw]'

/** What the JSON log line says, again in plain words for someone at a terminal (stderr elsewhere stays JSON lines). */
function onTerminal(text: string): void {
  if (process.stderr.isTTY) console.error(text)
}

let opts: ReturnType<typeof options>
try {
  opts = options()
  await checkPipelineTuning()
} catch (error) {
  // parseArgs' own errors (an unknown flag, a flag without its value) are usage errors too
  const message = error instanceof Error ? error.message : String(error)
  log.error('build.usage', { message, usage: USAGE })
  onTerminal(`${message}\n${USAGE}`)
  process.exit(2)
}

try {
  const result = await recordBuild(opts.snapshotsDir, opts.date, () => buildSnapshot(opts))
  console.log(`published ${result.snapshotId} → ${result.dir}`)
  for (const warning of result.warnings) onTerminal(`published, with a warning: ${warning}`)
} catch (error) {
  // another build runs on the folder: this one did nothing (exit code 3, apart from a failed build's 1)
  if (error instanceof BuildLockedError) {
    log.error('build.locked', { message: error.message })
    onTerminal(error.message)
    process.exit(3)
  }
  const fields = error instanceof Error ? { ...error, message: error.message, name: error.name } : { error }
  log.error('build.failed', fields)
  onTerminal(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
