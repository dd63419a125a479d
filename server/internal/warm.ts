/**
 * The warm-up of a loaded snapshot: it builds ahead of requests what requests would otherwise build on first use
 * and keep per snapshot under a memory budget. At the large scale: the score sums of get_followers_score_sum by
 * category (9,715 targets, 4.4 of 16 MiB) and by label combination (289 targets, 30 of 32 MiB), the author indexes of
 * get_smart_mentions (2,162 targets, 15.5 of 32 MiB), and those of get_mentioners for the targets most likely asked
 * about until its 96 MiB are spent (see `mentionersWarmer`). Each kind has its order (busiest or most asked first),
 * so a budget that runs out holds the targets that gain most; later targets are built on first use while the
 * budget lasts, then served the slower way.
 * It runs on the main thread in slices of at most `SLICE_MS`, yielding to requests between slices: answers are the
 * same before, during and after.
 *
 * @example const report = await warmSnapshot(snapshot) // { complete: true, ms: 1400, built: { category_sums: 9715, … } }
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import { log } from '../../pipeline/log.ts'
import type { Snapshot } from '../snapshot/types.ts'
import { scoreSumWarmers } from '../queries/label-sums.ts'
import { mentionersWarmer } from '../queries/mentioners.ts'
import { smartMentionsWarmer } from '../queries/smart-mention-windows.ts'

/** One kind of kept structure: its candidate targets in warm-up order, and a build that says when its budget is spent. */
export interface Warmer {
  name: string
  targets(snapshot: Snapshot): Int32Array
  /** Build the target's structure (a no-op when kept); false once the budget is spent. */
  build(snapshot: Snapshot, target: number): boolean
}

export const WARMERS: Warmer[] = [...scoreSumWarmers, smartMentionsWarmer, mentionersWarmer]

/** Longest stretch of warm-up work between two turns of the event loop (a request waits at most about this long). */
const SLICE_MS = 4

export interface WarmReport {
  /** false while running, and when stopped because the snapshot was no longer wanted. */
  complete: boolean
  ms: number
  /** Targets built per kind. */
  built: Record<string, number>
}

const reports = new WeakMap<Snapshot, WarmReport>()

/** The snapshot's warm-up so far (null: none started). */
export function warmReport(snapshot: Snapshot): WarmReport | null {
  return reports.get(snapshot) ?? null
}

/**
 * Build every warmer's structures for `snapshot`, one slice at a time; stops early (incomplete) when `wanted()`
 * turns false between slices, e.g. once the snapshot is replaced.
 */
export async function warmSnapshot(
  snapshot: Snapshot,
  { warmers = WARMERS, wanted = () => true, sliceMs = SLICE_MS }: { warmers?: Warmer[]; wanted?: () => boolean; sliceMs?: number } = {},
): Promise<WarmReport> {
  const started = performance.now()
  const report: WarmReport = { complete: false, ms: 0, built: Object.fromEntries(warmers.map((w) => [w.name, 0])) }
  reports.set(snapshot, report)
  let sliceEnd = started + sliceMs
  const pause = async () => {
    report.ms = Math.round(performance.now() - started)
    await nextTurn()
    sliceEnd = performance.now() + sliceMs
    return wanted()
  }
  for (const warmer of warmers) {
    const targets = warmer.targets(snapshot)
    for (const target of targets) {
      if (performance.now() > sliceEnd && !(await pause())) {
        log.info('snapshot.warm_stopped', { snapshot_id: snapshot.id, ms: report.ms, built: report.built })
        return report
      }
      if (!warmer.build(snapshot, target)) break
      report.built[warmer.name]++
    }
  }
  report.ms = Math.round(performance.now() - started)
  report.complete = true
  log.info('snapshot.warmed', { snapshot_id: snapshot.id, ms: report.ms, built: report.built })
  return report
}
