/**
 * How a build reaches its date from the state and the raw day folders (docs/pipeline.md): a night on the state of
 * the day before, with the raw days missed since replayed first; an import, a fold from scratch of every raw day; the
 * days built without their folder (gaps); and folders delivered after their day was built without them.
 *
 * @example planBuild(rawLayout('raw'), await stateDays(conn), '2026-11-22') // { mode: 'night', replay: ['2026-11-21'] }
 */
import type { RawLayout } from './raw-days.ts'

/** A day the state holds (`st.days`), oldest first. */
interface BuiltDay {
  day: string
}

/** `date` shifted by `days` (negative = earlier), as YYYY-MM-DD. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** A night on the state of the day before (the days missed since replayed first), or an import: a fold from scratch
 * of every raw day (the single-folder layout, an empty state, or `rebuild`). */
export interface Plan {
  mode: 'night' | 'import'
  replay: string[]
}

/**
 * `rebuilt`: days the state had built and a rewind took back (a late folder's or a rerun's: `st.replay_days`); they are replayed
 * too, with or without a folder (a gap day is folded as nothing and scored), so that no scored day goes missing.
 */
export function planBuild(layout: RawLayout, days: BuiltDay[], date: string, rebuild = false, rebuilt: string[] = []): Plan {
  const before = days.filter((d) => d.day < date)
  if (layout.kind === 'single' || rebuild || before.length === 0) return { mode: 'import', replay: [] }
  const last = before.at(-1)!.day
  const replay = new Set([...layout.days, ...rebuilt].filter((d) => d > last && d < date))
  return { mode: 'night', replay: [...replay].sort() }
}

/** The days after the state's last day, up to `date`, that have no raw folder: a night builds them as gaps. */
export function gapDays(layout: RawLayout & { kind: 'daily' }, days: BuiltDay[], date: string): string[] {
  const last = days.filter((d) => d.day < date).at(-1)?.day
  if (!last) return []
  const gaps: string[] = []
  for (let day = addDays(last, 1); day <= date; day = addDays(day, 1)) if (!layout.days.includes(day)) gaps.push(day)
  return gaps
}

/**
 * Folders delivered late: day folders before `date` that the state never folded although it has built a day on or
 * after them (their day was a gap), oldest first. The state takes them by rewinding to the oldest and replaying every
 * built day from there, which needs a built day to remain before it (else only `--rebuild` can take them: an import
 * scores only its own date) and the folder of every folded day from it on. `blocked` says why they cannot be folded,
 * or is null.
 */
export function lateRawDays(layout: RawLayout & { kind: 'daily' }, days: BuiltDay[], folded: Set<string>, date: string) {
  // with no built day before its date, the build folds every folder from scratch (an import): none is late
  if (!days.some((d) => d.day < date)) return { late: [], blocked: null }
  const last = days.at(-1)?.day
  const late = layout.days.filter((d) => d < date && last !== undefined && d <= last && !folded.has(d))
  if (late.length === 0) return { late, blocked: null }
  const away = 'or move the late folders out of the raw folder'
  const first = !days.some((d) => d.day < late[0])
  // a rewind needs the folders of the folded days from the oldest late one on; --rebuild needs every folded day's
  const missing = [...folded].filter((d) => (first || d >= late[0]) && !layout.days.includes(d)).sort()
  if (missing.length > 0) {
    return { late, blocked: `the folders of days folded with them are gone: ${missing.join(', ')}. Put them back (the next build takes the late folders), ${away}` }
  }
  if (first) return { late, blocked: `no built day comes before them to rewind to: fold everything again with --rebuild, ${away}` }
  return { late, blocked: null }
}
