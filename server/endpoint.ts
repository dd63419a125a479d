/**
 * The request pipeline of one operation: snapshot pinned → method check → access (key, quota, rate) → response
 * cache → handler → cache set → lookup record (successful account operations; buffered, see `lookups.ts`). Errors
 * become the spec's error body (HTTP 200 unless real statuses are on); anything unexpected becomes `server_error`
 * "Unexpected error…", logged with the request id.
 *
 * It runs synchronously from start to end when access and cache answer from this process (the embedded store): no
 * promise, no microtask. The answer is an `ApiResponse` with its header lines in a flat list, as Node writes them, so
 * nothing goes through `event.res` and its `Headers`. No closure is made per request on that path (each would cost an
 * allocation, and a `__name` call under tsx).
 *
 * @example const endpoint = new Endpoint(operation, options, requestIds(), new Doorkeeper()); app.all(path, (event) => endpoint.handle(event))
 */
import { randomBytes } from 'node:crypto'
import type { H3Event } from 'h3'
import { log } from '../pipeline/log.ts'
import { rawHeaderReader, type Admission, type HeaderReader } from './access/index.ts'
import type { AppOptions } from './app.ts'
import { ApiError, ERROR_STATUS, errorBody } from './errors.ts'
import { ApiResponse } from './internal/api_response.ts'
import { cacheKey, cacheKeyHashFrom, cacheKeySeed } from './access/cache-key.ts'
import type { Doorkeeper } from './internal/doorkeeper.ts'
import { asciiJson } from './json.ts'
import type { MaybePromise } from './internal/maybe_promise.ts'
import { rateLimitBucket, type Operation, type OperationContext } from './operations/define.ts'
import type { Snapshot } from './snapshot/types.ts'

export const JSON_TYPE = 'application/json; charset=utf-8'

/** What one request carries through the pipeline. */
interface Call {
  event: H3Event
  query: URLSearchParams
  /** The snapshot this request started with, whatever is published meanwhile. */
  snapshot: Snapshot
  requestId: string
  /** The response's header lines: name, value, … (names in lower case). */
  lines: string[]
}

export class Endpoint {
  private readonly bucket: string
  private readonly ttl: number
  private readonly recordLookup: ((snapshot: Snapshot, query: URLSearchParams) => void) | null | undefined
  /** The snapshot id `seed` was made for (an id, not the snapshot: a retired snapshot is not kept alive here). */
  private seededSnapshotId = ''
  private seed = 0

  constructor(
    private readonly operation: Operation,
    private readonly options: AppOptions,
    private readonly nextRequestId: () => string,
    /** Decides which missed bodies the cache stores (shared by all endpoints: keys name their operation). */
    private readonly doorkeeper: Doorkeeper,
  ) {
    this.bucket = rateLimitBucket(operation.name)
    this.ttl =
      !options.cache || operation.cache === 'never'
        ? 0
        : operation.cache === 'followers_diff'
          ? options.cacheTtlFollowersDiffSeconds
          : options.cacheTtlSeconds
    this.recordLookup = options.lookups?.forOperation(operation)
  }

  handle(event: H3Event): MaybePromise<Response> {
    const snapshot = this.options.snapshots.current
    const requestId = this.nextRequestId()
    const lines = ['content-type', JSON_TYPE, 'x-request-id', requestId, 'x-snapshot-id', snapshot.id, 'x-snapshot-date', snapshot.date]
    const call: Call = { event, query: event.url.searchParams, snapshot, requestId, lines }
    try {
      if (event.req.method !== 'GET') {
        throw new ApiError('method_not_allowed', 'Method not allowed', this.options.realStatus ? { allow: 'GET' } : {})
      }
      const { access } = this.options
      const admission = access ? access.admit({ headers: requestHeaders(event), query: call.query }, this.bucket) : null
      const answered =
        admission instanceof Promise ? admission.then((admitted) => this.answer(call, admitted)) : this.answer(call, admission)
      return answered instanceof Promise ? answered.catch((error) => this.fail(call, error)) : answered
    } catch (error) {
      return this.fail(call, error)
    }
  }

  private answer(call: Call, admission: Admission | null): MaybePromise<Response> {
    if (admission) call.lines.push('ratelimit-policy', admission.headers['ratelimit-policy'], 'ratelimit', admission.headers.ratelimit)
    if (this.ttl === 0) return respond(this.build(call, admission), call.lines)
    const { search } = call.event.url
    // a key the doorkeeper has not seen cannot be in the cache (bodies are stored from a key's second miss on):
    // its first request skips the lookup (a round trip with Redis), is built and not stored
    if (!this.doorkeeper.admit(cacheKeyHashFrom(this.cacheKeySeed(call.snapshot.id), search))) {
      call.lines.push('x-cache', 'MISS')
      return respond(this.build(call, admission), call.lines)
    }
    const key = cacheKey(this.operation.name, search, call.snapshot.id)
    const cached = this.cacheGet(call, key)
    return cached instanceof Promise
      ? cached.then((body) => this.answerFromCache(call, admission, key, body))
      : this.answerFromCache(call, admission, key, cached)
  }

  /** This operation's `cacheKeySeed` in a snapshot (made again when another snapshot is published). */
  private cacheKeySeed(snapshotId: string): number {
    if (snapshotId !== this.seededSnapshotId) {
      this.seed = cacheKeySeed(this.operation.name, snapshotId)
      this.seededSnapshotId = snapshotId
    }
    return this.seed
  }

  /** A hit is sent as stored; a miss is built and stored (its key has been asked before). */
  private answerFromCache(call: Call, admission: Admission | null, key: string, cached: Buffer | null): Response {
    call.lines.push('x-cache', cached === null ? 'MISS' : 'HIT')
    if (cached !== null) {
      this.recordLookup?.(call.snapshot, call.query)
      return respond(cached, call.lines)
    }
    const body = this.build(call, admission)
    this.cacheSet(call, key, body)
    return respond(body, call.lines)
  }

  /** The handler's body as ASCII JSON (encoded once: the socket sends these bytes and the cache keeps them). */
  private build(call: Call, admission: Admission | null): Buffer {
    const { snapshot, query } = call
    const body = this.operation.handle(new Context(query, snapshot, this.options.profileBaseUrl, admission))
    // list pages come as their bytes (`JsonWriter`: written around bytes kept per snapshot)
    const json = body instanceof Buffer ? body : Buffer.from(asciiJson(body))
    this.recordLookup?.(snapshot, query)
    return json
  }

  /** A cache outage degrades to uncached answers rather than failing requests. */
  private cacheGet(call: Call, key: string): MaybePromise<Buffer | null> {
    try {
      const cached = this.options.cache!.get(key)
      return cached instanceof Promise ? cached.catch((error) => cacheFailed('get', call, error)) : cached
    } catch (error) {
      return cacheFailed('get', call, error)
    }
  }

  /** The answer never waits for the cache write. */
  private cacheSet(call: Call, key: string, body: Buffer): void {
    try {
      const stored = this.options.cache!.set(key, body, this.ttl)
      if (stored instanceof Promise) stored.catch((error) => cacheFailed('set', call, error))
    } catch (error) {
      cacheFailed('set', call, error)
    }
  }

  /** The error body (with the error's headers and, when enabled, its real status) for anything a request threw. */
  private fail(call: Call, error: unknown): Response {
    const apiError =
      error instanceof ApiError ? error : new ApiError('server_error', `Unexpected error (request ${call.requestId})`)
    if (!(error instanceof ApiError)) {
      log.error('request.unexpected_error', {
        request_id: call.requestId,
        url: call.event.url.pathname + call.event.url.search,
        error: error instanceof Error ? error.stack : String(error),
      })
    }
    const status = this.options.realStatus ? ERROR_STATUS[apiError.code] : 200
    for (const [name, value] of Object.entries(apiError.headers)) setLine(call.lines, name.toLowerCase(), value)
    return respond(Buffer.from(asciiJson(errorBody(apiError.code, apiError.message))), call.lines, status)
  }
}

/** A handler's context. The request time is read when a handler first asks for it (most never do: a `Date` costs a call into the engine's C++). */
class Context implements OperationContext {
  #now: Date | undefined

  constructor(
    readonly query: URLSearchParams,
    readonly snapshot: Snapshot,
    readonly profileBaseUrl: string,
    readonly admission: Admission | null,
  ) {}

  get now(): Date {
    return (this.#now ??= new Date())
  }
}

/** The request's header fields for the access layer: from Node's raw header list when served by Node. */
function requestHeaders(event: H3Event): HeaderReader {
  const node = event.req.runtime?.node
  return node ? rawHeaderReader(node.req.rawHeaders) : event.req.headers
}

function respond(body: Buffer, lines: string[], status = 200): Response {
  return new ApiResponse(body, lines, status)
}

/** Sets the header line `name` (lower case) to `value`, in place of any line of that name already there. */
function setLine(lines: string[], name: string, value: string): void {
  for (let i = 0; i < lines.length; i += 2) {
    if (lines[i] === name) {
      lines[i + 1] = value
      return
    }
  }
  lines.push(name, value)
}

function cacheFailed(action: 'get' | 'set', call: Call, error: unknown): null {
  log.warn(`cache.${action}_failed`, { request_id: call.requestId, error: String(error) })
  return null
}

/**
 * Request ids, short and unique per process: a random prefix and a counter.
 * @example const next = requestIds(); next() // '9f2c41d0-1'
 */
export function requestIds(): () => string {
  const prefix = randomBytes(4).toString('hex')
  let counter = 0
  return () => `${prefix}-${(++counter).toString(36)}`
}
