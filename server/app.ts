/**
 * The h3 app: every operation of the registry behind the request pipeline of `endpoint.ts`, plus `/openapi.json`
 * and `/healthz`.
 *
 * @example const app = createApp({ snapshots, access, cache, ...serverConfigFromEnv() }); listen(toNodeHandler(app))
 */
import { H3 } from 'h3'
import type { AccessControl, ResponseCache } from './access/index.ts'
import { Endpoint, JSON_TYPE, requestIds } from './endpoint.ts'
import { Doorkeeper } from './internal/doorkeeper.ts'
import { asciiJson } from './json.ts'
import { warmReport } from './internal/warm.ts'
import type { LookupRecorder } from './lookups.ts'
import { buildOpenApi } from './openapi/document.ts'
import { operationPath, type Operation } from './operations/define.ts'
import { operations as registry } from './operations/index.ts'
import type { SnapshotSource } from './snapshot/current.ts'

export interface AppOptions {
  snapshots: SnapshotSource
  /** Absent only for the benchmark's baseline without auth, limits and cache. */
  access?: AccessControl
  cache?: ResponseCache
  /** Records each successful account lookup (top_researched); absent = not recorded. */
  lookups?: LookupRecorder
  realStatus: boolean
  profileBaseUrl: string
  cacheTtlSeconds: number
  cacheTtlFollowersDiffSeconds: number
  operations?: Operation[]
}

export function createApp(options: AppOptions): H3 {
  const app = new H3()
  const operations = options.operations ?? registry
  const openapi = asciiJson(buildOpenApi(operations))

  app.get('/healthz', () => {
    const s = options.snapshots.current
    const memory = process.memoryUsage()
    const warm = warmReport(s)
    return {
      ready: true,
      snapshot_id: s.id,
      snapshot_date: s.date,
      loaded_at: s.loadedAt.toISOString(),
      load_ms: s.loadMs,
      // serving-cache files held in memory (SERVING_RESIDENT_MB); the others are read per request
      resident_bytes: s.residentBytes,
      // the pool of blocks read from the other ones (SERVING_BLOCK_CACHE_MB): blocks found in it and read from files
      block_cache: options.snapshots.blockCache?.report() ?? null,
      // the kept per-snapshot structures built ahead of requests (null: no warm-up)
      warm: warm && { complete: warm.complete, ms: warm.ms, built: warm.built },
      rss_bytes: memory.rss,
      // the JS heap, and the memory of typed arrays and Buffers (the snapshot's columns, cached bodies)
      heap_used_bytes: memory.heapUsed,
      array_buffers_bytes: memory.arrayBuffers,
    }
  })
  app.get('/openapi.json', (event) => {
    event.res.headers.set('content-type', JSON_TYPE)
    return openapi
  })

  const nextRequestId = requestIds()
  const doorkeeper = new Doorkeeper()
  for (const operation of operations) {
    const endpoint = new Endpoint(operation, options, nextRequestId, doorkeeper)
    app.all(operationPath(operation), (event) => endpoint.handle(event))
  }
  // Not an operation of the API (outside the error contract): a plain 404 that names the path only, never the
  // query string, which may carry an `api_key`.
  app.all('/**', (event) => {
    event.res.status = 404
    event.res.headers.set('content-type', JSON_TYPE)
    return asciiJson({ success: false, message: `Not found: ${event.url.pathname}. The operations are listed at /openapi.json.` })
  })
  return app
}
