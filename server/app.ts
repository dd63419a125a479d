/**
 * The h3 app: every operation of the registry under `/api/v1`, plus `/openapi.json` and `/healthz`.
 *
 * An operation's request goes through its route's middleware, in order: `pin` (request id, the snapshot it is answered
 * from, method check), `admit` (key, quota, rate), `recordLookup` (account lookups, for top_researched), `cache` (a
 * hit answers; a miss runs the handler and stores its body), then the handler. Anything thrown on the way reaches the
 * app's one `onError`, which answers the spec's error body (HTTP 200 unless real statuses are on); anything unexpected
 * becomes `server_error` "Unexpected error…", logged with the request id.
 *
 * @example const app = createApp({ snapshots, access, cache, ...serverConfigFromEnv() }); listen(toNodeHandler(app))
 */
import { randomBytes } from 'node:crypto'
import { H3, type H3Event, type HTTPError, type Middleware } from 'h3'
import { foldedLog } from '../log/logger.ts'
import type { AccessControl, Admission, ResponseCache } from './access/index.ts'
import { cacheKey } from './access/cache-key.ts'
import { ApiError, ERROR_STATUS, errorBody } from './errors.ts'
import { asciiJson } from './json.ts'
import type { LookupRecorder } from './lookups.ts'
import type { Metrics } from './metrics.ts'
import { buildOpenApi } from './operations/openapi.ts'
import { operationPath, rateLimitBucket, type Operation } from './operations/define.ts'
import { operations as registry } from './operations/index.ts'
import type { OpenApiDocument } from './pages/llms-txt.ts'
import { addPages } from './pages/routes.ts'
import type { SnapshotSource } from './snapshot/current.ts'
import type { Snapshot } from './snapshot/load.ts'

export const JSON_TYPE = 'application/json; charset=utf-8'

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
  /** Request, cache and refusal counts for `/metrics`; absent = not counted. */
  metrics?: Metrics
  /** Serve `/metrics` on the API's own port (false when it has a listener of its own, or is off). */
  metricsRoute?: boolean
}

/** What an operation's middleware leaves for the next steps, in `event.context.call`. */
interface Call {
  requestId: string
  /** The operation's name, for the metrics (`performance.now()` at arrival in `started`). */
  operation: string
  started: number
  /** `ok`, or the error code the request was answered with. */
  outcome: string
  /** The snapshot this request started with, whatever is published meanwhile. */
  snapshot: Snapshot
  admission: Admission | null
}

export function createApp(options: AppOptions): H3 {
  const { metrics } = options
  const app = new H3({
    silent: true,
    onError: (error, event) => answerError(error, event, options.realStatus),
    onResponse: metrics && ((_response, event) => countRequest(metrics, event)),
  })
  const operations = options.operations ?? registry
  const document = buildOpenApi(operations)
  const openapi = asciiJson(document)

  app.get('/healthz', () => {
    const s = options.snapshots.current
    const memory = process.memoryUsage()
    return {
      ready: true,
      snapshot_id: s.id,
      snapshot_date: s.date,
      loaded_at: s.loadedAt.toISOString(),
      load_ms: s.loadMs,
      rss_bytes: memory.rss,
      // the JS heap, and the memory of typed arrays and Buffers (the snapshot's columns)
      heap_used_bytes: memory.heapUsed,
      array_buffers_bytes: memory.arrayBuffers,
    }
  })
  app.get('/openapi.json', (event) => {
    event.res.headers.set('content-type', JSON_TYPE)
    return openapi
  })

  addPages(app, document as unknown as OpenApiDocument, () => options.snapshots.current)
  if (metrics && options.metricsRoute) app.get('/metrics', (event) => metricsBody(metrics, event))

  for (const operation of operations) {
    const lookup = options.lookups?.forOperation(operation)
    const middleware = [
      pinRequest(operation, options),
      admit(options.access, rateLimitBucket(operation.name)),
      ...(lookup ? [recordLookup(lookup)] : []),
      cache(operation, options),
    ]
    app.all(
      operationPath(operation),
      (event) => {
        const { snapshot, admission } = callOf(event)
        const body = operation.handle({
          query: event.url.searchParams,
          snapshot,
          now: new Date(),
          profileBaseUrl: options.profileBaseUrl,
          admission,
        })
        return asciiJson(body)
      },
      { middleware },
    )
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

function callOf(event: H3Event): Call {
  return event.context.call as Call
}

/** Request ids, short and unique per process: a random prefix and a counter (`9f2c41d0-1`). */
const REQUEST_ID_PREFIX = randomBytes(4).toString('hex')
let requestCount = 0
const nextRequestId = () => `${REQUEST_ID_PREFIX}-${(++requestCount).toString(36)}`

/** Request id and snapshot for the whole request, their headers, and the method check. */
function pinRequest(operation: Operation, options: AppOptions): Middleware {
  return (event) => {
    const snapshot = options.snapshots.current
    const call: Call = { requestId: nextRequestId(), operation: operation.name, started: performance.now(), outcome: 'ok', snapshot, admission: null }
    event.context.call = call
    const headers = event.res.headers
    headers.set('content-type', JSON_TYPE)
    headers.set('x-request-id', call.requestId)
    headers.set('x-snapshot-id', snapshot.id)
    headers.set('x-snapshot-date', snapshot.date)
    if (event.req.method !== 'GET') {
      throw new ApiError('method_not_allowed', 'Method not allowed', options.realStatus ? { allow: 'GET' } : {})
    }
  }
}

/** Key, quota and rate of the operation's bucket (none in the benchmark's no-access baseline). */
function admit(access: AccessControl | undefined, bucket: string): Middleware {
  return async (event) => {
    if (!access) return
    const admission = await access.admit({ headers: event.req.headers, query: event.url.searchParams }, bucket)
    callOf(event).admission = admission
    event.res.headers.set('ratelimit-policy', admission.headers['ratelimit-policy'])
    event.res.headers.set('ratelimit', admission.headers.ratelimit)
  }
}

/** Records an answered account lookup (top_researched), whether the cache or the handler answered it. */
function recordLookup(lookup: NonNullable<ReturnType<LookupRecorder['forOperation']>>): Middleware {
  return async (event, next) => {
    const body = await next()
    lookup(callOf(event).snapshot, event.url.searchParams)
    return body
  }
}

/**
 * The response cache of an operation: a hit is sent as stored, a miss is answered by the handler and its body
 * stored. A cache outage degrades to uncached answers; the answer never waits for the cache write.
 */
function cache(operation: Operation, options: AppOptions): Middleware {
  const ttl = { never: 0, followers_diff: options.cacheTtlFollowersDiffSeconds, default: options.cacheTtlSeconds }[operation.cache]
  const store = options.cache
  return async (event, next) => {
    if (!store || ttl === 0) return next()
    const { requestId, snapshot } = callOf(event)
    const key = cacheKey(operation.name, event.url.search, snapshot.id)
    const cached = await store.get(key).catch((error) => cacheFailed('get', requestId, error))
    options.metrics?.cache(operation.name, cached !== null)
    if (cached !== null) {
      event.res.headers.set('x-cache', 'HIT')
      return cached
    }
    const body = await next()
    // an answer (an error body is never stored, and says nothing of the cache)
    event.res.headers.set('x-cache', 'MISS')
    if (typeof body === 'string') store.set(key, body, ttl).catch((error) => cacheFailed('set', requestId, error))
    return body
  }
}

/** Failures that a store outage repeats on every request: 5 lines per kind and 10 s are written, the rest counted. */
const logFailure = foldedLog(10_000, 5)

function cacheFailed(action: 'get' | 'set', requestId: string, error: unknown): null {
  logFailure('warn', `cache.${action}_failed`, String(error), { request_id: requestId, error: String(error) })
  return null
}

/** The spec's error body, with the error's headers and, when enabled, its real status, for anything thrown. */
function answerError(error: HTTPError, event: H3Event, realStatus: boolean): string | undefined {
  const call = event.context.call as Call | undefined
  if (!call) {
    // h3 refuses a URL that is not valid percent-encoding (400) before routing; its other errors keep its answer
    if (error.status !== 400) return undefined
    event.res.status = realStatus ? 400 : 200
    event.res.headers.set('content-type', JSON_TYPE)
    return asciiJson(errorBody('invalid_params', 'Malformed URL: the path is not valid percent-encoding'))
  }
  const thrown = error.cause
  const apiError =
    thrown instanceof ApiError ? thrown : new ApiError('server_error', `Unexpected error (request ${call.requestId})`)
  if (!(thrown instanceof ApiError)) {
    const url = event.url.pathname + event.url.search
    logFailure('error', 'request.unexpected_error', String(thrown), { request_id: call.requestId, url, error: thrown instanceof Error ? thrown.stack : String(thrown) })
  }
  call.outcome = apiError.code
  event.res.status = realStatus ? ERROR_STATUS[apiError.code] : 200
  for (const [name, value] of Object.entries(apiError.headers)) event.res.headers.set(name, value)
  return asciiJson(errorBody(apiError.code, apiError.message))
}

/** An API request's outcome and time, once its response is made (pages and `/metrics` itself are not counted). */
function countRequest(metrics: Metrics, event: H3Event): void {
  const call = event.context.call as Call | undefined
  if (call) metrics.request(call.operation, call.outcome, (performance.now() - call.started) / 1000)
}

/** The Prometheus text of every metric. */
export async function metricsBody(metrics: Metrics, event: H3Event): Promise<string> {
  event.res.headers.set('content-type', metrics.registry.contentType)
  return metrics.scrape()
}
