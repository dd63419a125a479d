/**
 * Prometheus metrics (`prom-client`), served at `/metrics` (or on their own listener, `METRICS_PORT`). Labels take
 * values from closed sets only (operation names of the registry, the spec's error codes, hit/miss), never anything
 * a caller sends, so no key or query ever reaches a label and the series count stays bounded.
 *
 * @example const metrics = createMetrics({ snapshot: () => snapshots.current, snapshotsDir }); metrics.request('get_followers', 'ok', 0.002)
 */
import fs from 'node:fs'
import path from 'node:path'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import { BUILD_STATUS_FILE, type BuildStatus } from '../pipeline/build-status.ts'
import type { Snapshot } from './snapshot/load.ts'

export interface MetricsOptions {
  snapshot: () => Pick<Snapshot, 'id' | 'date' | 'builtAt'>
  /** Where the nightly build writes `last-build.json` (`pipeline/build-status.ts`), read once per scrape. */
  snapshotsDir: string
}

export interface Metrics {
  registry: Registry
  /** The Prometheus text of every metric. */
  scrape(): Promise<string>
  /** One answered API request: its operation, outcome (`ok` or the error code) and time from arrival to the body. */
  request(operation: string, outcome: string, seconds: number): void
  /** One response-cache lookup of a cacheable operation. */
  cache(operation: string, hit: boolean): void
}

const REFUSALS = new Set(['rate_limited', 'quota_exceeded'])

export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const counter = (name: string, help: string, labelNames: string[]) => new Counter({ name, help, labelNames, registers: [registry] })
  const requests = counter('api_requests_total', 'API requests answered, by operation and outcome (ok or the error code).', ['operation', 'code'])
  const duration = new Histogram({
    name: 'api_request_duration_seconds',
    help: 'Time from a request arriving to its body being ready, by operation.',
    labelNames: ['operation'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  })
  const cache = counter('api_cache_requests_total', 'Response-cache lookups, by operation and result (hit or miss).', ['operation', 'result'])
  const refusals = counter(
    'api_access_refusals_total',
    'Requests refused by the monthly quota (quota_exceeded) or the per-bucket rate (rate_limited).',
    ['operation', 'reason'],
  )
  new Gauge({
    name: 'snapshot_info',
    help: 'The served snapshot (value 1), labelled with its id and build date.',
    labelNames: ['snapshot_id', 'snapshot_date'],
    registers: [registry],
    collect() {
      const s = options.snapshot()
      this.reset()
      this.set({ snapshot_id: s.id, snapshot_date: s.date }, 1)
    },
  })
  new Gauge({
    name: 'snapshot_age_seconds',
    help: 'Seconds since the served snapshot was built (alert when it passes a day and a bit: the nightly build failed).',
    registers: [registry],
    collect() {
      const { builtAt } = options.snapshot()
      if (Number.isFinite(builtAt)) this.set((Date.now() - builtAt) / 1000)
    },
  })
  let build: BuildStatus | null = null
  const lastBuild = (name: string, help: string, read: (status: BuildStatus) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        if (build) this.set(read(build))
      },
    })
  lastBuild('pipeline_last_build_success', 'Whether the last nightly build published (1) or failed (0).', (s) =>
    s.outcome === 'published' ? 1 : 0,
  )
  lastBuild('pipeline_last_build_timestamp_seconds', 'When the last nightly build ended (Unix time).', (s) =>
    Date.parse(s.finished_at) / 1000,
  )
  lastBuild('pipeline_last_build_duration_seconds', 'How long the last nightly build ran.', (s) => s.duration_ms / 1000)
  lastBuild('pipeline_last_build_warnings', 'Warnings of the last nightly build (gap days, late folders, after-publish failures).', (s) => s.warnings?.length ?? 0)

  return {
    registry,
    scrape() {
      build = readBuildStatus(options.snapshotsDir)
      return registry.metrics()
    },
    request(operation, outcome, seconds) {
      requests.inc({ operation, code: outcome })
      duration.observe({ operation }, seconds)
      if (REFUSALS.has(outcome)) refusals.inc({ operation, reason: outcome })
    },
    cache(operation, hit) {
      cache.inc({ operation, result: hit ? 'hit' : 'miss' })
    },
  }
}

function readBuildStatus(snapshotsDir: string): BuildStatus | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(snapshotsDir, BUILD_STATUS_FILE), 'utf8')) as BuildStatus
  } catch {
    return null
  }
}
