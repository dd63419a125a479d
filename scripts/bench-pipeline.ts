/**
 * Pipeline benchmark: `npm run bench:pipeline [-- --raw-demo DIR] [--raw-large DIR] [--only demo|large]`.
 * Builds the demo and large raw folders (generated into a temporary folder with the seed 42 when no path is given),
 * each in its own child process, and prints wall time, peak RSS and rows/s per step. Each build is the nightly one
 * (`npm run build`), preparation of the serving caches included. Targets (2 cores): large in ≤ 10 minutes with peak
 * RSS ≤ 8 GiB.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'
import { buildSnapshot } from '../pipeline/build.ts'
import { generateRaw } from './generate/index.ts'

const { values } = parseArgs({
  options: {
    'raw-demo': { type: 'string' },
    'raw-large': { type: 'string' },
    only: { type: 'string' },
    child: { type: 'string' },
    date: { type: 'string' },
  },
})

const TARGET = { large: { ms: 10 * 60_000, rssBytes: 8 * 1024 ** 3 } }
const DEFAULT_DATE = '2026-11-22'

/** The date a raw folder describes: the generator's end date, else the default. */
function rawDate(rawDir: string): string {
  const truth = path.join(rawDir, '_truth.json')
  if (values.date) return values.date
  return fs.existsSync(truth) ? (JSON.parse(fs.readFileSync(truth, 'utf8')).end_date as string) : DEFAULT_DATE
}

/** Child mode: one build in this process; the report is the last stdout line. */
async function child(rawDir: string): Promise<void> {
  const snapshotsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-snapshots-'))
  const started = Date.now()
  try {
    await buildSnapshot({ rawDir, snapshotsDir, date: rawDate(rawDir) })
    console.log(JSON.stringify({ ms: Date.now() - started, maxRssBytes: process.resourceUsage().maxRSS * 1024 }))
  } finally {
    fs.rmSync(snapshotsDir, { recursive: true, force: true })
  }
}

interface Step {
  step: string
  layer: string
  rows: number
  ms: number
}

function runChild(rawDir: string): Promise<{ ms: number; maxRssBytes: number; steps: Step[] }> {
  return new Promise((resolve, reject) => {
    const script = fileURLToPath(import.meta.url)
    const proc = spawn(process.execPath, ['--import', 'tsx', script, '--child', rawDir], {
      env: { ...process.env, LOG_LEVEL: 'info', CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
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
        if (event.event === 'build.step') {
          steps.push(event)
          process.stderr.write(`  ${event.layer}/${event.step}: ${event.rows} rows, ${event.ms} ms\n`)
        }
        else if (event.level === 'error') process.stderr.write(line + '\n')
      }
    })
    proc.on('close', (code) => {
      if (code !== 0) return reject(new Error(`build of ${rawDir} exited with ${code}`))
      const report = JSON.parse(stdout.trim().split('\n').at(-1)!)
      resolve({ ...report, steps })
    })
  })
}

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GiB`
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`

function printReport(scale: string, result: { ms: number; maxRssBytes: number; steps: Step[] }): void {
  console.log(`\n== ${scale}: wall ${secs(result.ms)}, peak RSS ${gib(result.maxRssBytes)}`)
  console.log(`${'step'.padEnd(34)} ${'rows'.padStart(12)} ${'ms'.padStart(9)} ${'rows/s'.padStart(12)}`)
  for (const s of result.steps) {
    const rate = s.ms > 0 && s.rows > 0 ? Math.round((s.rows / s.ms) * 1000).toLocaleString('en-US') : '-'
    console.log(`${`${s.layer}/${s.step}`.padEnd(34)} ${s.rows.toLocaleString('en-US').padStart(12)} ${String(s.ms).padStart(9)} ${rate.padStart(12)}`)
  }
  const target = TARGET[scale as keyof typeof TARGET]
  if (target) {
    const ok = result.ms <= target.ms && result.maxRssBytes <= target.rssBytes
    console.log(`target ≤ ${secs(target.ms)} and ≤ ${gib(target.rssBytes)}: ${ok ? 'met' : 'MISSED'}`)
  }
}

async function main(): Promise<void> {
  if (values.child) return child(values.child)
  const scales = (values.only ? [values.only] : ['demo', 'large']) as ('demo' | 'large')[]
  const generatedRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-raw-'))
  try {
    for (const scale of scales) {
      let rawDir = values[`raw-${scale}`]
      if (!rawDir) {
        rawDir = path.join(generatedRoot, scale)
        const started = Date.now()
        await generateRaw({ scale, seed: 42, outDir: rawDir, endDate: DEFAULT_DATE })
        console.log(`generated ${scale} in ${secs(Date.now() - started)}`)
      }
      printReport(scale, await runChild(path.resolve(rawDir)))
    }
  } finally {
    fs.rmSync(generatedRoot, { recursive: true, force: true })
  }
}

await main()
