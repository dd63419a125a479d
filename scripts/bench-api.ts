/**
 * `npm run bench:api [-- --scale demo|large] [--duration 5] [--connections 50] [--snapshots DIR | --raw DIR] [--only a,b]
 *   [--repeat N] [--profile DIR]`
 *
 * One run: a raw h3 hello-world server, our API without access (no auth, limits or cache) and our API with access
 * (embedded store), each in its own process; every operation loaded uncached with autocannon (each request of the
 * run has its own cache-busting parameter, and a rotating target; the server with access starts with its response
 * cache full, as in its steady state: `fillCache`), then req/s, p50/p99 and the ratio to hello-world, the access
 * overhead, the server's ready time (and the end of its warm-up, after which each load starts) and RSS. Without --snapshots, the scale's snapshot is built under the OS temp
 * folder (from --raw, or from freshly generated raw data) and reused the same day.
 * A fourth server, the replay, gives each operation its `ceiling`: an h3 server that does no work and answers the
 * same requests with our responses (recorded from our server before the operation's load: the same bodies and
 * header lines, in turn). Its ratio to hello-world is what any server sending these bytes reaches with this load
 * generator on this machine: autocannon, which shares the 2 cores, reads every body into a string, so large pages
 * cost it more than us.
 * `--profile DIR` writes a V8 CPU profile of each of our two servers (`node --cpu-prof`, open in Chrome DevTools or
 * read its self times) covering the whole run, one operation after another; the main thread's file ends in
 * `.0.001.cpuprofile` (the others are the snapshot loader's worker threads).
 * Each operation is measured in rounds: hello-world, the replay, then our server without access, then with access,
 * one after another (in the reverse order every other round), so a slower stretch of the shared machine weighs on
 * every side. Its ratios (to hello-world, and the access overhead) are taken within each round, and their median is
 * reported: a stretch that spans a round weighs on both sides of each of them. `--repeat N` makes N rounds per
 * operation; req/s, latencies and CPU are each server's run with the median req/s: single runs on a shared machine
 * vary by ±10–15%.
 * Targets: every operation ≥ 50% of hello-world req/s, p99 ≤ 10 ms; RSS ≤ 2 GiB, ready ≤ 10 s at large scale.
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
import { FastResponse } from 'srvx'
import { buildSnapshot } from '../pipeline/build.ts'
import { log } from '../pipeline/log.ts'
import { createServices, type ResponseCache } from '../server/access/index.ts'
import { serverConfigFromEnv } from '../server/config.ts'
import { startServer } from '../server/main.ts'
import { prepareServing } from '../server/snapshot/load.ts'
import { operations } from '../server/operations/index.ts'
import { generateRaw } from './generate/index.ts'
import type { ScaleName } from './generate/scales.ts'

interface AutocannonResult {
  requests: { average: number; total: number }
  latency: { p50: number; p99: number }
  non2xx: number
  errors: number
  timeouts: number
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon
/** USER_HZ of /proc/<pid>/stat times (100 on Linux). */
const CLOCK_TICKS = 100
/** How many of an operation's requests the replay answers with, in turn. */
const RECORDED = 64
/**
 * The serial number of the run's last request. It goes on from one load to the next, so no request of the run asks
 * what an earlier one asked (the `_bench` parameter): the server with access never finds a key it has seen, as in
 * a load of distinct queries, and stores nothing but its doorkeeper's false positives. A counter that started over at
 * each load would have it store, and later serve, a share of the requests that changed from one round to the next.
 */
let requestSerial = RECORDED

/** The response cache's bound on the server with access: the default (`CACHE_MAX_MB`, README). */
const FULL_CACHE_BYTES = 64 * 2 ** 20

/** What Node's server writes by itself (the replay's writes them too). */
const NODE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'])

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: 'demo' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    snapshots: { type: 'string' },
    raw: { type: 'string' },
    only: { type: 'string' },
    repeat: { type: 'string', default: '1' },
    profile: { type: 'string' },
    child: { type: 'string' },
  },
})

/** Query parameters per operation, drawn from the accounts `Targets` offers; `i` rotates through them. */
type Targets = { busy: string[]; usernames: string[]; ids: string[] }
const PARAMS: Record<string, (t: Targets, i: number) => Record<string, string>> = {
  bulk_scores_check: (t, i) => ({ ids: rotate(t.ids, i, 20).join(',') }),
  followers_count_history: (t, i) => ({ platform_id: pick(t.busy, i), period: 'all' }),
  'friendshipHistory/followed': (t, i) => ({ platform_id: pick(t.busy, i) }),
  'friendshipHistory/following': (t, i) => ({ platform_id: pick(t.busy, i) }),
  get_smart_follows: (_t, i) => ({ days: ['1', '7', '30'][i % 3], by: ['alpha', 'score', 'followers'][i % 3] }),
  get_alpha: (_t, i) => ({ days: ['1', '7', '30'][i % 3], by: ['alpha', 'score', 'followers'][i % 3] }),
  get_categories: () => ({}),
  get_categories_list: () => ({}),
  get_categorized_followers_count: (t, i) => ({ platform_id: pick(t.busy, i) }),
  get_followers: (t, i) => ({ username: pick(t.usernames, i), by: ['score', 'followers', 'subscribed_at'][i % 3] }),
  get_followers_diff: (t, i) => ({ platform_id: pick(t.busy, i) }),
  get_followers_score_sum: (t, i) => ({ platform_id: pick(t.busy, i), category_ids: '1,7' }),
  get_mentioners: (t, i) => ({ platform_id: pick(t.busy, i), days: '30' }),
  get_mentions_feed: (t, i) => ({ platform_id: pick(t.busy, i) }),
  limits: () => ({}),
  get_platform_score: (t, i) => ({ platform_id: pick(t.busy, i) }),
  get_platform_info: (t, i) => ({ username: pick(t.usernames, i) }),
  get_tags_list: () => ({}),
  get_tags: () => ({}),
  get_tag_categories: () => ({}),
  get_score_history: (t, i) => ({ platform_id: pick(t.busy, i), period: 'all' }),
  get_score_diff: (t, i) => ({ platform_id: pick(t.busy, i) }),
  get_trending: (_t, i) => ({ days: ['1', '7', '30'][i % 3], by: ['smart_followers', 'score'][i % 2] }),
  get_top_researched: (_t, i) => ({ days: ['1', '7', '30'][i % 3] }),
  get_smart_mentions: (t, i) => ({ platform_id: pick(t.busy, i) }),
  get_smart_mentions_feed: (t, i) => ({ platform_id: pick(t.busy, i) }),
}
const pick = <T>(list: T[], i: number) => list[i % list.length]
const rotate = <T>(list: T[], i: number, n: number) => Array.from({ length: n }, (_, k) => list[(i + k) % list.length])

if (values.child) await runChild(values.child)
else await main()

async function main(): Promise<void> {
  const scale = values.scale as ScaleName
  const snapshotsDir = values.snapshots ? path.resolve(values.snapshots) : await ensureSnapshot(scale)
  const targets = await pickTargets(snapshotsDir)
  const only = values.only?.split(',')
  const benched = operations.filter((op) => !only || only.includes(op.name))
  for (const op of benched) if (!PARAMS[op.name]) throw new Error(`bench-api has no parameters for ${op.name}`)

  // every server started is stopped at the end, also when a later one fails to start
  const spawned: Spawned[] = []
  const start = async (kind: ServerKind) => {
    const server = await spawnServer(kind, snapshotsDir)
    spawned.push(server)
    return server
  }
  const recordings = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-replay-'))
  try {
    const hello = await start('hello')
    const replay = await start('replay')
    const bare = await start('bare')
    const full = await start('full')
    const rows: Row[] = []
    const hellos: Measured[] = []
    for (const op of benched) {
      const paths = (i: number) => {
        const params = new URLSearchParams({ ...PARAMS[op.name](targets, i), _bench: String(i) })
        return `/api/v1/${op.name}?${params}`
      }
      await assertSuccess(full.url, paths(0), full.key)
      // the replay answers with the responses of the server compared first (`limits` needs a key: with access)
      const [replayed, replayHeaders] = op.name === 'limits' ? [full, { 'x-api-key': full.key }] : [bare, {}]
      await replayResponses(replay, path.join(recordings, `${op.name.replace('/', '_')}.json`), await record(replayed, paths, replayHeaders))
      // the servers in turn, so a slower stretch of the shared machine weighs on every side of the comparison
      const runs = await repeated((round) =>
        inTurn(round, {
          hello: () => load(hello, () => '/', {}),
          ceiling: () => load(replay, paths, replayHeaders),
          withoutAccess: () => (op.name === 'limits' ? Promise.resolve(null) : load(bare, paths, {})),
          withAccess: () => load(full, paths, { 'x-api-key': full.key }),
        }),
      )
      hellos.push(...runs.map((run) => run.hello))
      const withoutAccess = op.name === 'limits' ? null : median(runs.map((run) => run.withoutAccess!))
      const withAccess = median(runs.map((run) => run.withAccess))
      // ratios of the servers loaded in the same round, then their median: a slower stretch of the machine that
      // spans a round weighs on both sides of each ratio
      const overheads = withoutAccess ? runs.map((run) => 1 - rps(run.withAccess) / rps(run.withoutAccess!)) : []
      const ratios = {
        ceiling: medianOf(runs.map((run) => rps(run.ceiling) / rps(run.hello))),
        withoutAccess: withoutAccess && medianOf(runs.map((run) => rps(run.withoutAccess!) / rps(run.hello))),
        withAccess: medianOf(runs.map((run) => rps(run.withAccess) / rps(run.hello))),
        overhead: withoutAccess && medianOf(overheads),
      }
      rows.push({ op: op.name, hello: median(runs.map((run) => run.hello)), withoutAccess, withAccess, ratios, overheads })
      log.info('bench.operation', { op: op.name, rps: Math.round(withAccess.requests.average), p99: withAccess.latency.p99 })
    }
    const health = (await (await fetch(`${full.url}healthz`)).json()) as Memory
    report(scale, median(hellos), rows, full, health)
  } finally {
    // SIGINT lets a profiled server exit normally, which writes its profile
    await Promise.all(spawned.map(stop))
    fs.rmSync(recordings, { recursive: true, force: true })
  }
}

type Measured = AutocannonResult & { cpuUs: number }

/**
 * req/s, p50/p99 (ms) and the ratio to hello-world as measured by autocannon; `cpu` = server CPU µs per request and
 * `capacity` = hello-world's CPU per request / ours (what the server would sustain relative to hello-world if the
 * load generator, which shares the machine, were not a limit).
 */
type Memory = { rss_bytes: number; heap_used_bytes: number; array_buffers_bytes: number }

/** An operation's row: the median run of each server, and the medians of the ratios of each round's runs. */
interface Row {
  op: string
  hello: Measured
  withoutAccess: Measured | null
  withAccess: Measured
  ratios: { ceiling: number; withoutAccess: number | null; withAccess: number; overhead: number | null }
  /** The access overhead of each round (none for `limits`, which needs a key). */
  overheads: number[]
}

function report(scale: string, baseline: Measured, rows: Row[], server: Pick<Spawned, 'readyMs' | 'warmedMs'>, memory: Memory): void {
  const cell = (r: Measured, ratio: number, hello: Measured) =>
    [Math.round(r.requests.average), r.latency.p50, r.latency.p99, ratio.toFixed(2), Math.round(r.cpuUs), (hello.cpuUs / r.cpuUs).toFixed(2)]
      .map((v, i) => String(v).padStart([7, 4, 4, 5, 5, 8][i]))
      .join(' ')
  const header = `${'req/s'.padStart(7)} ${'p50'.padStart(4)} ${'p99'.padStart(4)} ${'ratio'.padStart(5)} ${'cpuµs'.padStart(5)} ${'capacity'.padStart(8)}`
  const lines = [
    `bench:api scale=${scale} connections=${values.connections} duration=${values.duration}s repeat=${values.repeat} (req/s, latencies in ms and CPU: each server's median run by req/s)`,
    `hello-world h3: ${Math.round(baseline.requests.average)} req/s, p50 ${baseline.latency.p50} ms, p99 ${baseline.latency.p99} ms, ${Math.round(baseline.cpuUs)} µs CPU/request (median of all its runs)`,
    '',
    "ratio, ceiling and overhead: the median over an operation's rounds of the ratio of the runs of the same round",
    'ceiling: the ratio of a server that only replays our responses (the same bytes, no work): the most any server reaches here',
    '',
    `${''.padEnd(39)} ${'without access'.padEnd(38)} | with access (auth + limits + cache)`,
    `${'operation'.padEnd(31)} ${'ceiling'.padStart(7)} ${header} | ${header} overhead target`,
  ]
  for (const { op, hello, withoutAccess, withAccess, ratios } of rows) {
    const overhead = ratios.overhead === null ? '-' : percent(ratios.overhead)
    const ok = ratios.withAccess >= 0.5 && withAccess.latency.p99 <= 10 && withAccess.non2xx === 0 && withAccess.errors === 0
    lines.push(
      `${op.padEnd(31)} ${ratios.ceiling.toFixed(2).padStart(7)} ${withoutAccess ? cell(withoutAccess, ratios.withoutAccess!, hello) : '(needs a key)'.padEnd(38)} | ${cell(withAccess, ratios.withAccess, hello)} ${overhead.padStart(8)} ${ok ? 'met' : 'missed'}`,
    )
  }
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`
  lines.push('', ...targets(rows))
  lines.push(
    '',
    `server ready in ${(server.readyMs / 1000).toFixed(1)} s, warm-up done at ${(server.warmedMs / 1000).toFixed(1)} s; after the run RSS ${mib(memory.rss_bytes)} (JS heap ${mib(memory.heap_used_bytes)}, typed arrays and Buffers ${mib(memory.array_buffers_bytes)})`,
  )
  process.stdout.write(lines.join('\n') + '\n')
}

/** How many operations meet each target of the API and access issues, and the worst of them. */
function targets(rows: Row[]): string[] {
  type Target = { of: Row[]; value: (row: Row) => number; limit: number; atLeast: boolean; show: (value: number) => string }
  const counted = (name: string, { of, value, limit, atLeast, show }: Target) => {
    if (of.length === 0) return `${name}: none measured`
    const better = (a: number, b: number) => (atLeast ? a >= b : a <= b)
    const worst = of.reduce((a, b) => (better(value(a), value(b)) ? b : a))
    const count = of.filter((row) => better(value(row), limit)).length
    return `${name}: ${count} of ${of.length} (worst: ${worst.op} ${show(value(worst))})`
  }
  const bare = rows.filter((row) => row.withoutAccess !== null)
  const ratio = (value: number) => value.toFixed(2)
  const ms = (value: number) => `${value} ms`
  return [
    counted('without access ≥ 0.5 of hello-world', { of: bare, value: (row) => row.ratios.withoutAccess!, limit: 0.5, atLeast: true, show: ratio }),
    counted('with access ≥ 0.5 of hello-world', { of: rows, value: (row) => row.ratios.withAccess, limit: 0.5, atLeast: true, show: ratio }),
    counted('p99 ≤ 10 ms without access', { of: bare, value: (row) => row.withoutAccess!.latency.p99, limit: 10, atLeast: false, show: ms }),
    counted('p99 ≤ 10 ms with access', { of: rows, value: (row) => row.withAccess.latency.p99, limit: 10, atLeast: false, show: ms }),
    counted('access overhead ≤ 15%', { of: bare, value: (row) => row.ratios.overhead!, limit: 0.15, atLeast: false, show: percent }),
    pooledOverhead(bare),
  ]
}

/**
 * The access overhead of the whole API: the median of every round's ratio of every operation. One operation's
 * median of a few rounds moves by several points from run to run on this shared machine (two aliases served by the
 * same code have differed by 30 points in one run); pooled, the rounds of all operations say what the access path
 * costs an operation of this API, and the quartiles how far single rounds spread.
 */
function pooledOverhead(rows: Row[]): string {
  const all = rows.flatMap((row) => row.overheads).sort((a, b) => a - b)
  if (all.length === 0) return 'access overhead, all operations: none measured'
  const at = (q: number) => all[Math.min(all.length - 1, Math.floor(q * all.length))]
  return `access overhead, all operations: median ${percent(medianOf(all))} of ${all.length} rounds (quartiles ${percent(at(0.25))} to ${percent(at(0.75))}) ${medianOf(all) <= 0.15 ? 'met' : 'missed'} (≤ 15%)`
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`
}

/** `--repeat` runs of `measure` (given the round's number from 0), one after another. */
async function repeated<T>(measure: (round: number) => Promise<T>): Promise<T[]> {
  const runs: T[] = []
  for (let r = 0; r < Math.max(1, Number(values.repeat)); r++) runs.push(await measure(r))
  return runs
}

/**
 * One round: each server's load in turn, in the order given in even rounds and the reverse order in odd ones, so
 * over the rounds no server is always loaded first or after the same neighbour (what a drift of the machine's speed
 * during a round, or the leftovers of the load before, would do to one side of a ratio is shared out).
 */
async function inTurn<T extends Record<string, () => Promise<unknown>>>(
  round: number,
  loads: T,
): Promise<{ [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  const names = Object.keys(loads) as (keyof T)[]
  const measured = {} as { [K in keyof T]: Awaited<ReturnType<T[K]>> }
  for (const name of round % 2 === 0 ? names : names.reverse()) measured[name] = (await loads[name]()) as Awaited<ReturnType<T[typeof name]>>
  return measured
}

/** The run with the median req/s (the lower middle one of an even count): its figures are reported. */
function median(runs: Measured[]): Measured {
  return runs.slice().sort((a, b) => a.requests.average - b.requests.average)[Math.floor((runs.length - 1) / 2)]
}

/** The median of values (the mean of the middle two of an even count). */
function medianOf(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

function rps(run: Measured): number {
  return run.requests.average
}

/** Load one server; `cpuUs` is the server process's CPU time per request (independent of the load generator). */
async function load(server: Spawned, pathAt: (i: number) => string, headers: Record<string, string>) {
  const requests = [{ method: 'GET', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: pathAt(++requestSerial) }) }]
  // warm-up (JIT, lazily built structures), not measured
  await autocannon({ url: server.url, connections: Number(values.connections), duration: 1, headers, requests })
  const cpuBefore = cpuMicros(server.process.pid!)
  const result = await autocannon({
    url: server.url,
    connections: Number(values.connections),
    duration: Number(values.duration),
    headers,
    requests,
  })
  return { ...result, cpuUs: (cpuMicros(server.process.pid!) - cpuBefore) / Math.max(1, result.requests.total) }
}

/** utime + stime of a process from /proc (Linux), in microseconds. */
function cpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS
}

/** Our responses to the first `RECORDED` requests of a load (bodies and header lines; Node adds its own four). */
async function record(server: Spawned, pathAt: (i: number) => string, headers: Record<string, string>): Promise<Recorded[]> {
  const recorded: Recorded[] = []
  for (let i = 1; i <= RECORDED; i++) {
    const response = await fetch(`${server.url}${pathAt(i).slice(1)}`, { headers })
    const kept: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      if (!NODE_HEADERS.has(name)) kept[name] = value
    })
    recorded.push({ headers: kept, body: Buffer.from(await response.arrayBuffer()).toString('base64') })
  }
  return recorded
}

interface Recorded {
  headers: Record<string, string>
  /** base64 */
  body: string
}

/** The replay answers with `recorded` from now on (handed over in a file). */
async function replayResponses(replay: Spawned, file: string, recorded: Recorded[]): Promise<void> {
  fs.writeFileSync(file, JSON.stringify(recorded))
  const response = await fetch(`${replay.url}__replay?${new URLSearchParams({ file })}`)
  if (!response.ok) throw new Error(`the replay server refused ${file}: ${response.status}`)
}

async function assertSuccess(url: string, pathname: string, key: string): Promise<void> {
  const body = (await (await fetch(`${url}${pathname.slice(1)}`, { headers: { 'x-api-key': key } })).json()) as { success?: boolean; message?: string }
  if (body.success === false) throw new Error(`${pathname} fails: ${body.message}`)
}

/** Busy accounts (most smart followers) and their handles, read once by DuckDB in the benchmark process. */
async function pickTargets(snapshotsDir: string): Promise<Targets> {
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  const accounts = `read_parquet('${path.join(fs.realpathSync(path.join(snapshotsDir, 'current')), 'accounts.parquet')}')`
  const rows = (
    await conn.runAndReadAll(
      `SELECT platform_id::VARCHAR, username FROM ${accounts} WHERE is_tracked ORDER BY smart_followers_count DESC LIMIT 500`,
    )
  ).getRows() as [string, string][]
  conn.closeSync()
  instance.closeSync()
  return { busy: rows.map((r) => r[0]), usernames: rows.map((r) => r[1]), ids: rows.map((r) => r[0]) }
}

/** The scale's snapshot under the OS temp folder, built on first use (raw data generated unless --raw is given). */
async function ensureSnapshot(scale: ScaleName): Promise<string> {
  const root = path.join(os.tmpdir(), 'account-scoring-bench', scale)
  const snapshotsDir = path.join(root, 'snapshots')
  const date = new Date().toISOString().slice(0, 10)
  if (builtOn(snapshotsDir) === date) return snapshotsDir
  const rawDir = values.raw ? path.resolve(values.raw) : path.join(root, 'raw')
  if (!values.raw) {
    fs.rmSync(rawDir, { recursive: true, force: true })
    await generateRaw({ scale, seed: 42, outDir: rawDir, endDate: date })
  }
  await buildSnapshot({ rawDir, snapshotsDir, date, prepareServing })
  return snapshotsDir
}

function builtOn(snapshotsDir: string): string | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(snapshotsDir, 'current', 'manifest.json'), 'utf8')).build_date
  } catch {
    return null
  }
}

interface Spawned {
  process: ChildProcess
  url: string
  key: string
  readyMs: number
  /** Until the end of the snapshot's warm-up (equal to `readyMs` for hello-world). */
  warmedMs: number
}

type ServerKind = 'hello' | 'replay' | 'bare' | 'full'

/** Start one server in its own process; it prints one JSON line `{url, key, readyMs, warmedMs}` once warm. */
function spawnServer(kind: ServerKind, snapshotsDir: string): Promise<Spawned> {
  const script = fileURLToPath(import.meta.url)
  const profile = values.profile && (kind === 'bare' || kind === 'full') ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values.profile)}`] : []
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', script, '--child', kind, '--snapshots', snapshotsDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
    // every server runs as `npm run serve` runs ours: with the caller's GLIBC_TUNABLES, if any (README)
    env: { ...process.env, LOG_LEVEL: 'warn' },
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

/** Stop a server and wait until it has exited. */
function stop(server: Spawned): Promise<void> {
  const child = server.process
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGINT')
  return exited
}

/**
 * The replay server: `/__replay?file=` loads recorded responses; every other request gets the next of them as it
 * was (status 200, its header lines and body bytes), whatever it asks.
 */
function replayApp(): H3 {
  let responses: { headers: Record<string, string>; body: Buffer }[] = []
  let next = 0
  return new H3()
    .get('/__replay', (event) => {
      const recorded = JSON.parse(fs.readFileSync(event.url.searchParams.get('file')!, 'utf8')) as Recorded[]
      responses = recorded.map(({ headers, body }) => ({ headers, body: Buffer.from(body, 'base64') }))
      next = 0
      return { responses: responses.length }
    })
    .all('/**', () => {
      const { headers, body } = responses[next++ % responses.length]
      return new FastResponse(body, { status: 200, statusText: 'OK', headers })
    })
}

async function runChild(kind: string): Promise<void> {
  const started = Date.now()
  process.once('SIGINT', () => process.exit(0))
  // the server's folders go with it (a run's lookup lines alone came to up to a gigabyte)
  const folders: string[] = []
  const folder = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
    folders.push(dir)
    return dir
  }
  process.once('exit', () => {
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true })
  })
  if (kind === 'hello' || kind === 'replay') {
    const app = kind === 'hello' ? new H3().get('/', () => ({ hello: 'world' })) : replayApp()
    const listener = await listen(toNodeHandler(app), { port: 0, hostname: '127.0.0.1', showURL: false })
    const readyMs = Date.now() - started
    process.stdout.write(JSON.stringify({ url: listener.url, key: '', readyMs, warmedMs: readyMs }) + '\n')
    return
  }
  const config = {
    ...serverConfigFromEnv(),
    port: 0,
    host: '127.0.0.1',
    snapshotsDir: values.snapshots!,
    // the recorder stays on (its cost is part of every account operation) but never writes into ./data
    lookupsDir: folder('bench-lookups-'),
  }
  let key = ''
  let services = null
  if (kind === 'full') {
    const dataDir = folder('bench-access-')
    services = await createServices({ driver: 'embedded', dataDir, cacheMaxBytes: FULL_CACHE_BYTES })
    const account = await services.admin.createAccount({ monthlyQuota: 1_000_000_000, rate: '1000000000/minute' })
    key = (await services.admin.createKey(account.userId, 'bench')).key
  }
  const server = await startServer(config, services)
  const readyMs = Date.now() - started
  if (services) fillCache(services.cache, server.snapshots.current.id)
  // measured once warm: what a server serves from the end of its warm-up on (it answers during it, see warm.ts)
  await server.snapshots.warmed
  process.stdout.write(JSON.stringify({ url: server.url, key, readyMs, warmedMs: Date.now() - started }) + '\n')
}

/**
 * The server with access is measured as one in its steady state: its response cache full, of bodies of 0.5–4 KB
 * under keys of this snapshot, each in its own memory as stored bodies are. The run's requests are all distinct, so
 * it only looks up and stores its doorkeeper's false positives (each evicts the oldest entry), but every request
 * is served beside the ~35,000 entries' objects and the memory they hold.
 */
function fillCache(cache: ResponseCache, snapshotId: string): void {
  const sizes = [512, 1024, 2048, 4096]
  let stored = 0
  for (let i = 0; stored < FULL_CACHE_BYTES * 1.1; i++) {
    const body = Buffer.alloc(sizes[i % sizes.length], 0x20 + (i % 90))
    cache.set(`get_followers?_fill=${i}@${snapshotId}`, body, 3600)
    stored += body.length
  }
}
