/**
 * The h3 app: every operation of the registry behind one request pipeline, plus `/openapi.json` and `/healthz`.
 *
 * Per request: snapshot pinned → method check → access (key, quota, rate) → response cache → handler → cache set
 * (success bodies only) → lookup record (successful account operations; buffered, see `lookups.ts`). Errors become
 * the spec's error body (HTTP 200 unless real statuses are on); anything unexpected becomes `server_error`
 * "Unexpected error…", logged with the request id.
 *
 * @example const app = createApp({ snapshots, access, cache, ...serverConfigFromEnv() }); listen(toNodeHandler(app))
 */
import { randomBytes } from 'node:crypto'
import { H3, type H3Event } from 'h3'
import { log } from '../pipeline/log.ts'
import type { AccessControl, Admission, ResponseCache } from './access/index.ts'
import { ApiError, ERROR_STATUS, errorBody } from './errors.ts'
import { JsonText } from './internal/json_text.ts'
import type { LookupRecorder } from './lookups.ts'
import { buildOpenApi } from './openapi.ts'
import { operationPath, rateLimitBucket, type Operation } from './operation.ts'
import { operations as registry } from './routes/index.ts'
import type { SnapshotSource } from './snapshot/current.ts'
import type { Snapshot } from './snapshot/types.ts'

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

const JSON_TYPE = 'application/json; charset=utf-8'

export function createApp(options: AppOptions): H3 {
  const app = new H3()
  const operations = options.operations ?? registry
  const openapi = JSON.stringify(buildOpenApi(operations))
  const nextRequestId = requestIds()

  app.get('/healthz', () => {
    const s = options.snapshots.current
    return {
      ready: true,
      snapshot_id: s.id,
      snapshot_date: s.date,
      loaded_at: s.loadedAt.toISOString(),
      load_ms: s.loadMs,
      rss_bytes: process.memoryUsage.rss(),
    }
  })
  app.get('/openapi.json', (event) => {
    event.res.headers.set('content-type', JSON_TYPE)
    return openapi
  })

  for (const operation of operations) {
    const bucket = rateLimitBucket(operation.name)
    const ttl = cacheTtl(operation, options)
    const recordLookup = options.lookups?.forOperation(operation)
    app.all(operationPath(operation), async (event) => {
      const requestId = nextRequestId()
      const snapshot = options.snapshots.current
      const headers = event.res.headers
      headers.set('content-type', JSON_TYPE)
      headers.set('x-request-id', requestId)
      headers.set('x-snapshot-id', snapshot.id)
      headers.set('x-snapshot-date', snapshot.date)
      try {
        if (event.req.method !== 'GET') {
          throw new ApiError('method_not_allowed', 'Method not allowed', options.realStatus ? { allow: 'GET' } : {})
        }
        const query = event.url.searchParams
        let admission: Admission | null = null
        if (options.access) {
          admission = await options.access.admit({ headers: event.req.headers, query }, bucket)
          for (const [name, value] of Object.entries(admission.headers)) headers.set(name, value)
        }
        const key = ttl > 0 && options.cache ? cacheKey(operation, query, snapshot) : null
        const cached = key ? await cacheGet(options.cache!, key, requestId) : null
        if (key) headers.set('x-cache', cached === null ? 'MISS' : 'HIT')
        const body =
          cached ??
          jsonOf(operation.handle({ query, snapshot, now: new Date(), profileBaseUrl: options.profileBaseUrl, admission }))
        // the answer does not wait for the cache write (cacheSet logs its own failures)
        if (key && cached === null) void cacheSet(options.cache!, key, body, ttl, requestId)
        recordLookup?.(snapshot, query)
        return body
      } catch (error) {
        return errorBodyFor(error, event, requestId, options.realStatus)
      }
    })
  }
  // Not an operation of the API (outside the error contract): a plain 404 that names the path only, never the
  // query string, which may carry an `api_key`.
  app.all('/**', (event) => {
    event.res.status = 404
    event.res.headers.set('content-type', JSON_TYPE)
    return JSON.stringify({ success: false, message: `Not found: ${event.url.pathname}. The operations are listed at /openapi.json.` })
  })
  return app
}

/** The error body (with the error's headers and, when enabled, its real status) for anything a request threw. */
function errorBodyFor(error: unknown, event: H3Event, requestId: string, realStatus: boolean): string {
  const apiError =
    error instanceof ApiError ? error : new ApiError('server_error', `Unexpected error (request ${requestId})`)
  if (!(error instanceof ApiError)) {
    log.error('request.unexpected_error', {
      request_id: requestId,
      url: event.url.pathname + event.url.search,
      error: error instanceof Error ? error.stack : String(error),
    })
  }
  for (const [name, value] of Object.entries(apiError.headers)) event.res.headers.set(name, value)
  event.res.status = realStatus ? ERROR_STATUS[apiError.code] : 200
  return JSON.stringify(errorBody(apiError.code, apiError.message))
}

/** A handler's body as JSON text (list pages come as `JsonText`, joined from text kept per snapshot). */
function jsonOf(body: object): string {
  return body instanceof JsonText ? body.text : JSON.stringify(body)
}

function cacheTtl(operation: Operation, options: AppOptions): number {
  if (operation.cache === 'never') return 0
  return operation.cache === 'followers_diff' ? options.cacheTtlFollowersDiffSeconds : options.cacheTtlSeconds
}

/** Operation + parameters in a canonical order without the credential + snapshot: equal queries share an entry. */
function cacheKey(operation: Operation, query: URLSearchParams, snapshot: Snapshot): string {
  const params = [...query].filter(([name]) => name !== 'api_key').sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `${operation.name}?${new URLSearchParams(params)}@${snapshot.id}`
}

/** A cache outage degrades to uncached answers rather than failing requests. */
async function cacheGet(cache: ResponseCache, key: string, requestId: string): Promise<string | null> {
  try {
    return await cache.get(key)
  } catch (error) {
    log.warn('cache.get_failed', { request_id: requestId, error: String(error) })
    return null
  }
}

async function cacheSet(cache: ResponseCache, key: string, body: string, ttl: number, requestId: string) {
  try {
    await cache.set(key, body, ttl)
  } catch (error) {
    log.warn('cache.set_failed', { request_id: requestId, error: String(error) })
  }
}

/** Short, unique per process: a random prefix and a counter. */
function requestIds(): () => string {
  const prefix = randomBytes(4).toString('hex')
  let counter = 0
  return () => `${prefix}-${(++counter).toString(36)}`
}
