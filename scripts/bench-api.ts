/**
 * `npm run bench:api [-- --scale demo|large] [--duration 5] [--warmup 1] [--connections 50] [--snapshots DIR | --raw DIR] [--only a,b]`
 *
 * Three servers, each in its own process: an h3 hello-world, our API without access (no auth, limits or cache) and
 * our API with access (embedded store). Every operation is loaded uncached with autocannon (each request carries its
 * own `_bench` parameter and a rotating target), on the server without access and then with it; hello-world is
 * loaded before each operation, so each ratio compares runs a few seconds apart on the shared machine. Each load is
 * preceded by `--warmup` seconds of the same load, not measured (the steady state is measured, not V8 compiling
 * the operation's code on its first requests). Reported:
 * req/s, p50/p99 and the ratio to hello-world per operation and server, the servers' ready time and RSS after the run.
 * Without --snapshots, the scale's snapshot is built under the OS temp folder (from --raw, or from freshly generated
 * raw data: 60 days, 8 at large) and reused the same day.
 * Floors: every operation ≥ 0.25 of hello-world req/s, p99 ≤ 10 ms; RSS ≤ 2 GiB and ready ≤ 10 s at large scale.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'
import { DuckDBInstance } from '@duckdb/node-api'
import { H3, toNodeHandler } from 'h3'
import { listen } from 'listhen'
import { buildSnapshot } from '../pipeline/build.ts'
import { currentBuildDate } from '../pipeline/publish.ts'
import { createServices } from '../server/access/index.ts'
import { serverConfigFromEnv } from '../server/config.ts'
import { startServer } from '../server/main.ts'
import { operations } from '../server/operations/index.ts'
import { generateRaw } from './generate/index.ts'
import type { ScaleName } from './generate/scales.ts'

interface AutocannonResult {
  requests: { average: number }
  latency: { p50: number; p99: number }
  non2xx: number
  errors: number
  timeouts: number
}
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: Record<string, unknown>) => Promise<AutocannonResult>

const FLOOR_RATIO = 0.25
const MAX_P99_MS = 10
/**
 * Days of raw data a generated snapshot holds: at large, the 8 days that fill the 7-day windows (a fold of 60 days at
 * once spills more than a 2-core box's disk holds: docs/pipeline.md); at the other scales, the generator's 60.
 */
const GENERATED_DAYS: Partial<Record<ScaleName, number>> = { large: 8 }


const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: 'demo' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '50' },
    snapshots: { type: 'string' },
    raw: { type: 'string' },
    only: { type: 'string' },
    child: { type: 'string' },
  },
})

/** Query parameters per operation, drawn from the busiest accounts; `i` rotates through them. */
type Targets = { ids: string[]; usernames: string[] }
const PARAMS: Record<string, (t: Targets, i: number) => Record<string, string>> = {
  bulk_scores_check: (t, i) => ({ ids: rotate(t.ids, i, 20).join(',') }),
  followers_count_history: (t, i) => ({ platform_id: pick(t.ids, i), period: 'all' }),
  'friendshipHistory/followed': (t, i) => ({ platform_id: pick(t.ids, i) }),
  'friendshipHistory/following': (t, i) => ({ platform_id: pick(t.ids, i) }),
  get_smart_follows: (_t, i) => ({ days: ['1', '7', '30'][i % 3], by: ['alpha', 'score', 'followers'][i % 3] }),
  get_alpha: (_t, i) => ({ days: ['1', '7', '30'][i % 3], by: ['alpha', 'score', 'followers'][i % 3] }),
  get_categories: () => ({}),
  get_categories_list: () => ({}),
  get_categorized_followers_count: (t, i) => ({ platform_id: pick(t.ids, i) }),
  get_followers: (t, i) => ({ username: pick(t.usernames, i), by: ['score', 'followers', 'subscribed_at'][i % 3] }),
  get_followers_diff: (t, i) => ({ platform_id: pick(t.ids, i) }),
  get_followers_score_sum: (t, i) => ({ platform_id: pick(t.ids, i), category_ids: '1,7' }),
  get_mentioners: (t, i) => ({ platform_id: pick(t.ids, i), days: '30' }),
  get_mentions_feed: (t, i) => ({ platform_id: pick(t.ids, i) }),
  limits: () => ({}),
  get_platform_score: (t, i) => ({ platform_id: pick(t.ids, i) }),
  get_platform_info: (t, i) => ({ username: pick(t.usernames, i) }),
  get_tags_list: () => ({}),
  get_tags: () => ({}),
  get_tag_categories: () => ({}),
  get_score_history: (t, i) => ({ platform_id: pick(t.ids, i), period: 'all' }),
  get_score_diff: (t, i) => ({ platform_id: pick(t.ids, i) }),
  get_platform_scores_diff: (t, i) => ({ platform_id: pick(t.ids, i) }),
  get_platform_top_followers: (t, i) => ({ username: pick(t.usernames, i), period: '30d' }),
  get_score_explanation: (t, i) => ({ platform_id: pick(t.ids, i) }),
  get_trending: (_t, i) => ({ days: ['1', '7', '30'][i % 3], by: ['smart_followers', 'score'][i % 2] }),
  get_top_researched: (_t, i) => ({ days: ['1', '7', '30'][i % 3] }),
  get_smart_mentions: (t, i) => ({ platform_id: pick(t.ids, i) }),
  get_smart_mentions_feed: (t, i) => ({ platform_id: pick(t.ids, i) }),
}
const pick = <T>(list: T[], i: number) => list[i % list.length]
const rotate = <T>(list: T[], i: number, n: number) => Array.from({ length: n }, (_, k) => list[(i + k) % list.length])

interface Spawned {
  process: ChildProcess
  url: string
  key: string
  readyMs: number
}

interface Measured {
  rps: number
  p50: number
  p99: number
}

if (values.child) await runChild(values.child)
else await main()

async function main(): Promise<void> {
  const scale = values.scale as ScaleName
  const snapshotsDir = values.snapshots ? path.resolve(values.snapshots) : await ensureSnapshot(scale)
  const targets = await pickTargets(snapshotsDir)
  const only = values.only?.split(',')
  const measured = operations.filter((op) => !only || only.includes(op.name))
  const hello = await spawnServer('hello', snapshotsDir)
  const bare = await spawnServer('bare', snapshotsDir)
  const full = await spawnServer('full', snapshotsDir)
  let serial = 0
  const lines = [
    `bench:api ${values.snapshots ? `--snapshots ${values.snapshots}` : `--scale ${scale}`}: ${values.connections} connections, ${values.duration} s per load (req/s, p50/p99 ms, ratio to hello-world)`,
    `${'operation'.padEnd(31)} ${'hello'.padStart(7)} | ${'without access'.padEnd(28)} | ${'with access'.padEnd(28)}`,
  ]
  const failures: string[] = []
  try {
    for (const op of measured) {
      const pathAt = (i: number) => `/api/v1/${op.name}?${new URLSearchParams({ ...PARAMS[op.name](targets, i), _bench: String(serial + i) })}`
      const baseline = await load(hello, () => '/', {})
      const runs: (Measured | null)[] = []
      for (const server of [bare, full]) {
        // `limits` answers the caller's account: it has nothing to answer without access
        if (op.name === 'limits' && server === bare) {
          runs.push(null)
          continue
        }
        const headers: Record<string, string> = server.key ? { 'x-api-key': server.key } : {}
        await assertSuccess(server, pathAt(0), headers)
        runs.push(await load(server, pathAt, headers))
        serial += 10_000_000
      }
      const cells = runs.map((run, s) => {
        if (!run) return '-'.padEnd(28)
        const ratio = run.rps / baseline.rps
        if (ratio < FLOOR_RATIO) failures.push(`${op.name} ${s === 0 ? 'without' : 'with'} access: ratio ${ratio.toFixed(2)}`)
        if (run.p99 > MAX_P99_MS) failures.push(`${op.name} ${s === 0 ? 'without' : 'with'} access: p99 ${run.p99} ms`)
        return `${Math.round(run.rps).toString().padStart(7)} ${`${run.p50}/${run.p99}`.padStart(7)} ${ratio.toFixed(2).padStart(5)}`.padEnd(28)
      })
      const line = `${op.name.padEnd(31)} ${Math.round(baseline.rps).toString().padStart(7)} | ${cells.join(' | ')}`
      lines.push(line)
      process.stderr.write(`${line}\n`)
    }
    const rss = await Promise.all([bare, full].map(async (server) => (await health(server)).rss_bytes / 2 ** 20))
    lines.push(
      `ready: without access ${bare.readyMs} ms, with access ${full.readyMs} ms; RSS after the run: ${rss.map((mb) => `${Math.round(mb)} MiB`).join(', ')}`,
      failures.length === 0 ? `every operation ≥ ${FLOOR_RATIO} of hello-world, p99 ≤ ${MAX_P99_MS} ms` : `below the floors: ${failures.join('; ')}`,
    )
  } finally {
    await Promise.all([hello, bare, full].map(stop))
  }
  process.stdout.write(`${lines.join('\n')}\n`)
}

async function load(server: Spawned, pathAt: (i: number) => string, headers: Record<string, string>): Promise<Measured> {
  let i = 0
  const run = (seconds: number) =>
    autocannon({
      url: server.url.replace(/\/$/, ''),
      connections: Number(values.connections),
      duration: seconds,
      headers,
      requests: [{ setupRequest: (request: Record<string, unknown>) => ({ ...request, path: pathAt(i++) }) }],
    })
  if (Number(values.warmup) > 0) await run(Number(values.warmup))
  const result = await run(Number(values.duration))
  if (result.errors + result.timeouts + result.non2xx > 0) {
    throw new Error(`${server.url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`)
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 }
}

async function assertSuccess(server: Spawned, pathname: string, headers: Record<string, string>): Promise<void> {
  const body = (await (await fetch(`${server.url}${pathname.slice(1)}`, { headers })).json()) as { success?: boolean; message?: string }
  if (body.success === false) throw new Error(`${pathname} fails: ${body.message}`)
}

async function health(server: Spawned): Promise<{ rss_bytes: number }> {
  return (await (await fetch(`${server.url}healthz`)).json()) as { rss_bytes: number }
}

/** The busiest accounts (most smart followers) and their handles, read by DuckDB in the benchmark process. */
async function pickTargets(snapshotsDir: string): Promise<Targets> {
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  const accounts = `read_parquet('${path.join(fs.realpathSync(path.join(snapshotsDir, 'current')), 'accounts.parquet')}')`
  const rows = (
    await conn.runAndReadAll(`SELECT platform_id::VARCHAR, username FROM ${accounts} WHERE is_tracked ORDER BY smart_followers_count DESC LIMIT 500`)
  ).getRows() as [string, string][]
  conn.closeSync()
  instance.closeSync()
  return { ids: rows.map((r) => r[0]), usernames: rows.map((r) => r[1]) }
}

/** The scale's snapshot under the OS temp folder, built on first use (raw data generated unless --raw is given). */
async function ensureSnapshot(scale: ScaleName): Promise<string> {
  const root = path.join(os.tmpdir(), 'account-scoring-bench', scale)
  const snapshotsDir = path.join(root, 'snapshots')
  const date = new Date().toISOString().slice(0, 10)
  if (currentBuildDate(snapshotsDir) === date) return snapshotsDir
  const rawDir = values.raw ? path.resolve(values.raw) : path.join(root, 'raw')
  if (!values.raw) {
    fs.rmSync(rawDir, { recursive: true, force: true })
    await generateRaw({ scale, seed: 42, outDir: rawDir, endDate: date, days: GENERATED_DAYS[scale] })
  }
  await buildSnapshot({ rawDir, snapshotsDir, date })
  return snapshotsDir
}

/** Start one server in its own process; it prints one JSON line `{url, key, readyMs}` once it listens. */
function spawnServer(kind: 'hello' | 'bare' | 'full', snapshotsDir: string): Promise<Spawned> {
  const script = fileURLToPath(import.meta.url)
  const child = spawn(process.execPath, ['--import', 'tsx', script, '--child', kind, '--snapshots', snapshotsDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
    // the snapshot on huge pages, as `npm run serve` runs it (README, Configuration)
    env: { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1', ...process.env, LOG_LEVEL: 'warn' },
  })
  return new Promise((resolve, reject) => {
    let buffer = ''
    child.stdout!.on('data', (chunk) => {
      buffer += chunk
      const line = buffer.split('\n').find((l) => l.startsWith('{'))
      if (line) resolve({ process: child, ...JSON.parse(line) })
    })
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)))
  })
}

function stop(server: Spawned): Promise<void> {
  const child = server.process
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGINT')
  return exited
}

/** Ready time: from the process's start (module loading included) until it listens. */
function sinceStart(): number {
  return Math.round(process.uptime() * 1000)
}

async function runChild(kind: string): Promise<void> {
  // the server's folders (lookup lines, access store) go with it
  const folders: string[] = []
  const folder = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
    folders.push(dir)
    return dir
  }
  process.once('SIGINT', () => process.exit(0))
  process.once('exit', () => {
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true })
  })
  if (kind === 'hello') {
    const listener = await listen(toNodeHandler(new H3().get('/', () => ({ hello: 'world' }))), { port: 0, hostname: '127.0.0.1', showURL: false })
    process.stdout.write(JSON.stringify({ url: listener.url, key: '', readyMs: sinceStart() }) + '\n')
    return
  }
  // the lookup recorder stays on (its cost is part of every account operation) but never writes into ./data
  const config = { ...serverConfigFromEnv(), port: 0, host: '127.0.0.1', snapshotsDir: values.snapshots!, lookupsDir: folder('bench-lookups-') }
  let key = ''
  let services = null
  if (kind === 'full') {
    services = await createServices({ driver: 'embedded', dataDir: folder('bench-access-') })
    const account = await services.admin.createAccount({ monthlyQuota: 1_000_000_000, rate: '1000000000/minute' })
    key = (await services.admin.createKey(account.userId, 'bench')).key
  }
  const server = await startServer(config, services)
  process.stdout.write(JSON.stringify({ url: server.url, key, readyMs: sinceStart() }) + '\n')
}
