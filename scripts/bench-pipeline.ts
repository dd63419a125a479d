/**
 * Pipeline benchmark: `npm run bench:pipeline [-- --only demo|large] [--days N] [--nights N] [--sample K] [--raw DIR]
 * [--record FILE]`.
 * For each scale (demo with 365 days of daily scans, large with 60; `--days` overrides), generates
 * the raw day folders (seed 42, into a temporary folder; `--raw` reuses a generated folder), then builds every day in
 * order as the nightly cron does: the first day imports, every later day is one night on the state of the day before
 * (each night in its own child process). Prints per night: wall time, CPU time (user + system: what other work on a
 * shared machine disturbs least), peak RSS, state and snapshot size. With `--sample K` only the import, the 9th to
 * 11th nights, every K-th night, the first two nights of the last month (they write the month that closed as one
 * part of the follower counts and of the score history) and the last three are measured: the days before each measured
 * night are caught up by one unmeasured build of the day before it (which replays the missed days, as the nightly CLI
 * does), so a measured night is always one day on the state of the day before. Then the figures of its targets: the
 * last night's time and peak RSS with its steps beside the 10th night's (which steps grow with the days), how a
 * night's time grows over the days (last night against the 10th, and the median of the last three against that of
 * the 9th to 11th: target ≤ 1.2×; beside it, how many more smart follows the last night scores and its time per smart
 * follow), the first nights of the last month against the 10th, the state's size and growth per day, and its rows per
 * table. `--record FILE` appends each measured night (its figures and steps) to FILE as a JSON line when it ends, so
 * a run stopped before its report keeps what it measured.
 * Targets (2 cores): a large night ≤ 5 minutes with peak RSS ≤ 8 GiB.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'
import { buildSnapshot } from '../pipeline/build.ts'
import { rawLayout } from '../pipeline/raw-days.ts'
import { stateBytes, stateRows } from '../pipeline/state.ts'
import { generateRaw } from './generate/index.ts'

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    days: { type: 'string' },
    nights: { type: 'string' },
    sample: { type: 'string' },
    raw: { type: 'string' },
    record: { type: 'string' },
    child: { type: 'boolean', default: false },
    snapshots: { type: 'string' },
    date: { type: 'string' },
  },
  allowNegative: true,
})

const SCALES = { demo: 365, large: 60 } as const
type ScaleName = keyof typeof SCALES
const TARGET = { large: { ms: 5 * 60_000, rssBytes: 8 * 1024 ** 3 } }
const GROWTH_TARGET = 1.2

/** Whether the k-th night (`date`) is one of the first two of the last day's month, after the 11th. */
const isMonthStart = (k: number, date: string, lastDate: string) => k > 11 && date.slice(0, 7) === lastDate.slice(0, 7) && date.slice(8) <= '02'
const END_DATE = '2026-11-22'

interface Step {
  step: string
  layer: string
  /** none for a view */
  rows?: number
  ms: number
}

interface Night {
  date: string
  /** the day's place in the raw folder: 0 = the import, k = the k-th night */
  k: number
  /** wall time */
  ms: number
  /** CPU time (user + system, all threads): less sensitive than wall time to other work on a shared machine */
  cpuMs: number
  maxRssBytes: number
  stateBytes: number
  snapshotBytes: number
  steps: Step[]
}

/** Child mode: one build in this process; the report is the last stdout line. */
async function child(): Promise<void> {
  const started = Date.now()
  const result = await buildSnapshot({
    rawDir: values.raw!,
    snapshotsDir: values.snapshots!,
    date: values.date!,
  })
  const ms = Date.now() - started
  const snapshotBytes = result.manifest.files.reduce((n, f) => n + fs.statSync(path.join(result.dir, f.file)).size, 0)
  const usage = process.resourceUsage()
  const cpuMs = Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000)
  console.log(JSON.stringify({ ms, cpuMs, maxRssBytes: usage.maxRSS * 1024, snapshotBytes }))
}

function runNight(rawDir: string, snapshotsDir: string, date: string, k: number): Promise<Night> {
  return new Promise((resolve, reject) => {
    const script = fileURLToPath(import.meta.url)
    const args = ['--import', 'tsx', script, '--child', '--raw', rawDir, '--snapshots', snapshotsDir, '--date', date]
    const proc = spawn(process.execPath, args, { env: { ...process.env, LOG_LEVEL: 'info', CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] })
    const steps: Step[] = []
    let stdout = ''
    let pending = ''
    proc.stdout.on('data', (d) => (stdout += d))
    proc.stderr.on('data', (d) => {
      pending += d
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) {
        if (!line.startsWith('{')) continue
        const event = JSON.parse(line)
        if (event.event === 'build.step') steps.push(event)
        else if (event.level === 'error') process.stderr.write(line + '\n')
      }
    })
    proc.on('close', (code) => {
      if (code !== 0) return reject(new Error(`build of ${date} exited with ${code}`))
      const report = JSON.parse(stdout.trim().split('\n').at(-1)!)
      resolve({ date, k, ...report, stateBytes: stateBytes(path.join(snapshotsDir, 'state')), steps })
    })
  })
}

const daysSince = (a: Night, b: Night) => (Date.parse(b.date) - Date.parse(a.date)) / 86_400_000
const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GiB`
const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** The night's steps (the build's `build.step` log lines), beside the same steps of an earlier night when given. */
function printSteps(night: Night, earlier?: Night): void {
  const key = (s: Step) => `${s.layer}/${s.step}`
  const before = new Map(earlier?.steps.map((s) => [key(s), s]))
  const cell = (value: number | string | undefined, width: number) =>
    (value === undefined ? '-' : typeof value === 'number' ? value.toLocaleString('en-US') : value).padStart(width)
  const nights = earlier ? [earlier.date, night.date] : [night.date]
  console.log(`${'step'.padEnd(36)}${nights.map((d) => ` ${cell(`rows ${d}`, 17)} ${cell('ms', 7)}`).join('')}${earlier ? cell('Δ ms', 8) : ''}`)
  for (const s of night.steps) {
    const e = before.get(key(s))
    const columns = earlier ? [[e?.rows, e?.ms], [s.rows, s.ms]] : [[s.rows, s.ms]]
    const delta = earlier ? cell(s.ms - (e?.ms ?? 0), 8) : ''
    console.log(`${key(s).padEnd(36)}${columns.map(([rows, ms]) => ` ${cell(rows, 17)} ${cell(ms, 7)}`).join('')}${delta}`)
  }
}

function printReport(scale: ScaleName, nights: Night[], rows: Record<string, number>): void {
  const last = nights.at(-1)!
  const days = last.k + 1
  const tenth = nights.find((n) => n.k === 10)
  console.log(`\n== ${scale}: ${days} days, ${nights.length} builds measured (the first imports, then one night per day)`)
  console.log(`last night (${last.date}): wall ${secs(last.ms)}, CPU ${secs(last.cpuMs)}, peak RSS ${gib(last.maxRssBytes)}`)
  // the steps of the last night beside those of the 10th: which of them grow with the days
  printSteps(last, tenth)
  const target = TARGET[scale as keyof typeof TARGET]
  if (target) {
    const ok = last.ms <= target.ms && last.maxRssBytes <= target.rssBytes
    console.log(`target ≤ ${secs(target.ms)} and ≤ ${gib(target.rssBytes)}: ${ok ? 'met' : 'MISSED'}`)
  }
  const nightly = nights.filter((n) => n.k > 0)
  if (tenth && last !== tenth) {
    const ratio = last.ms / tenth.ms
    console.log(`growth: 10th night ${secs(tenth.ms)}, last night ${secs(last.ms)}: ${ratio.toFixed(2)}× (target ≤ ${GROWTH_TARGET}×: ${ratio <= GROWTH_TARGET ? 'met' : 'MISSED'})`)
    const cpuRatio = last.cpuMs / tenth.cpuMs
    console.log(`growth in CPU time: 10th night ${secs(tenth.cpuMs)}, last night ${secs(last.cpuMs)}: ${cpuRatio.toFixed(2)}× (target ≤ ${GROWTH_TARGET}×: ${cpuRatio <= GROWTH_TARGET ? 'met' : 'MISSED'})`)
    // how much of the growth the data's own growth explains: the smart follows each night scores
    const edges = (n: Night) => n.steps.find((s) => s.step === 'int_smart_edges')?.rows
    const [edgesBefore, edgesAfter] = [edges(tenth), edges(last)]
    if (edgesBefore && edgesAfter) {
      const graph = edgesAfter / edgesBefore
      console.log(`smart follows: 10th night ${edgesBefore.toLocaleString('en-US')}, last night ${edgesAfter.toLocaleString('en-US')} (${graph.toFixed(2)}×); time per smart follow ${(ratio / graph).toFixed(2)}× wall, ${(cpuRatio / graph).toFixed(2)}× CPU`)
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
    // one night can run 50% slower when the shared machine is busy: the same growth over the median of three nights
    // at each end (the 9th to 11th, the last three)
    const [early, late] = [nightly.filter((n) => n.k >= 9 && n.k <= 11), nightly.slice(-3)]
    if (early.length === 3 && late[0].k > 11) {
      for (const [label, of] of [['wall', (n: Night) => n.ms], ['CPU', (n: Night) => n.cpuMs]] as const) {
        const [a, b] = [median(early.map(of)), median(late.map(of))]
        console.log(`growth in ${label} time, medians of three nights: 9th–11th ${secs(a)}, last three ${secs(b)}: ${(b / a).toFixed(2)}× (target ≤ ${GROWTH_TARGET}×: ${b / a <= GROWTH_TARGET ? 'met' : 'MISSED'})`)
      }
    }
    const firsts = nightly.filter((n) => isMonthStart(n.k, n.date, last.date))
    if (firsts.length > 0) {
      const listed = firsts.map((n) => `${n.date} ${secs(n.ms)} (${(n.ms / tenth.ms).toFixed(2)}×)`).join(', ')
      console.log(`a month's first nights (the month before written as one part of the follower counts and of the score history), against the 10th night: ${listed}`)
    }
    console.log(`nights measured (wall / CPU): ${nightly.map((n) => `${n.date} ${secs(n.ms)} / ${secs(n.cpuMs)}`).join(', ')}`)
    const perDay = (last.stateBytes - tenth.stateBytes) / Math.max(1, daysSince(tenth, last))
    console.log(`state: ${mib(last.stateBytes)} after ${days} days; ${mib(perDay)} per day since the 10th night; snapshot ${mib(last.snapshotBytes)}`)
  } else {
    console.log(`state: ${mib(last.stateBytes)} after ${days} days; snapshot ${mib(last.snapshotBytes)}`)
  }
  console.log(`peak RSS over all nights: ${gib(Math.max(...nightly.map((n) => n.maxRssBytes), 0))}`)
  console.log(`state rows: ${Object.entries(rows).map(([table, n]) => `${table} ${n.toLocaleString('en-US')}`).join(', ')}`)
}

async function benchScale(scale: ScaleName, root: string): Promise<void> {
  const days = Number(values.days ?? SCALES[scale])
  let rawDir = values.raw
  if (!rawDir) {
    rawDir = path.join(root, `${scale}-raw`)
    const started = Date.now()
    await generateRaw({ scale, seed: 42, outDir: rawDir, endDate: END_DATE, days })
    console.log(`generated ${scale}, ${days} days, in ${secs(Date.now() - started)}`)
  }
  const layout = rawLayout(rawDir)
  if (layout.kind !== 'daily') throw new Error(`${rawDir} is not in the daily layout`)
  const dates = layout.days.slice(0, values.nights ? Number(values.nights) + 1 : undefined)
  const snapshotsDir = path.join(root, `${scale}-snapshots`)
  const nights: Night[] = []
  console.log(`${'date'.padEnd(12)} ${'wall'.padStart(8)} ${'CPU'.padStart(8)} ${'peak RSS'.padStart(10)} ${'state'.padStart(11)} ${'snapshot'.padStart(11)}`)
  const sample = Number(values.sample ?? 1)
  const measured = (k: number) =>
    sample <= 1 || k === 0 || (k >= 9 && k <= 11) || k % sample === 0 || isMonthStart(k, dates[k], dates.at(-1)!) || k >= dates.length - 3
  for (const [k, date] of dates.entries()) {
    if (!measured(k)) continue
    if (k > 0 && !measured(k - 1)) {
      const caughtUp = await runNight(path.resolve(rawDir), snapshotsDir, dates[k - 1], k - 1)
      console.log(`${dates[k - 1].padEnd(12)} caught up (days replayed and built, unmeasured) in ${secs(caughtUp.ms)}`)
    }
    const night = await runNight(path.resolve(rawDir), snapshotsDir, date, k)
    nights.push(night)
    if (values.record) fs.appendFileSync(values.record, JSON.stringify({ scale, ...night }) + '\n')
    console.log(`${date.padEnd(12)} ${secs(night.ms).padStart(8)} ${secs(night.cpuMs).padStart(8)} ${gib(night.maxRssBytes).padStart(10)} ${mib(night.stateBytes).padStart(11)} ${mib(night.snapshotBytes).padStart(11)}`)
  }
  printReport(scale, nights, await stateRows(path.join(snapshotsDir, 'state')))
  fs.rmSync(snapshotsDir, { recursive: true, force: true })
}

async function main(): Promise<void> {
  if (values.child) return child()
  const scales = (values.only ? [values.only] : ['demo', 'large']) as ScaleName[]
  for (const scale of scales) if (!Object.hasOwn(SCALES, scale)) throw new Error(`--only must be demo or large, got ${scale}`)
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pipeline-'))
  try {
    for (const scale of scales) await benchScale(scale, root)
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}

await main()
