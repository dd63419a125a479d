import { ApiError } from '../errors.ts'
import { andThen, type MaybePromise } from '../internal/maybe_promise.ts'
import { hashApiKey, looksLikeApiKey } from './api-keys.ts'
import type { CountRequest, CountResult, Counters } from './stores/interface.ts'
import { readApiKey } from './credentials.ts'
import { PERIOD_MS, parseRate, type Rate } from './plans.ts'
import { RateLimitFormat } from './rate-limit-headers.ts'
import type { AccountEntry, AccountRecords } from './records.ts'
import type { AccessControl, Admission, Credentials, RateLimitHeaders } from './types.ts'

/** The messages of the key errors; they never repeat the key. */
const KEY_ERROR_MESSAGES = {
  api_key_missing: 'API key is missing. Send it in the X-API-Key header.',
  api_key_invalid: 'API key is invalid.',
  api_key_revoked: 'API key has been revoked.',
  api_access_deactivated: 'API access is deactivated for this account.',
} as const

/**
 * Admission of every request: authenticate the key, then count the call against the account's monthly quota and
 * its rate in the request's bucket in one atomic step. A refused call (any error here) counts against nothing.
 * Synchronous when the account record and the counters are in this process (the embedded store).
 *
 * A key that was admitted is remembered with what admitted it (a `Grant`) for as long as its account's record is
 * the current one: the next requests with it neither hash it nor look up its account, and count through the
 * memo of the grant's bucket. A changed record (a revoked key, deactivated access, a new plan; or the record read
 * again each second) retires the grant, and the next request with the key is checked in full.
 */
export function createAccessControl(records: AccountRecords, counters: Counters): AccessControl {
  const grants = new Grants()

  function admitWith(grant: Grant, bucket: string): MaybePromise<Admission> {
    const terms = grant.inBucket(bucket)
    const counted = counters.count(terms.request)
    return counted instanceof Promise ? counted.then((result) => decide(grant, terms, result)) : decide(grant, terms, counted)
  }

  return {
    admit(credentials: Credentials, bucket: string): MaybePromise<Admission> {
      const credential = readApiKey(credentials)
      if (!credential) throw new ApiError('api_key_missing', KEY_ERROR_MESSAGES.api_key_missing)
      const { key } = credential
      const known = grants.get(key)
      if (known !== undefined && known.entry.until > Date.now()) return admitWith(known, bucket)
      const hash = known?.hash ?? hashOfKey(key)
      return andThen(authenticate(records, hash), (entry) => admitWith(grants.keep(key, new Grant(hash, entry)), bucket))
    },
  }
}

/** What admitted a key: its hash, its account's entry, the plan's parsed rate, and its terms in each bucket. */
class Grant {
  readonly rate: Rate
  private readonly buckets = new Map<string, BucketTerms>()

  constructor(
    readonly hash: string,
    readonly entry: AccountEntry,
  ) {
    this.rate = parseRate(entry.record.plan.rate)
  }

  inBucket(bucket: string): BucketTerms {
    let terms = this.buckets.get(bucket)
    if (terms === undefined) {
      const { userId, plan } = this.entry.record
      const rateWindowMs = PERIOD_MS[this.rate.period]
      terms = {
        // the same request each time, with the memo the counters keep for this account and bucket
        request: { userId, bucket, quotaTotal: plan.monthlyQuota, rateTotal: this.rate.total, rateWindowMs, memo: {} },
        format: new RateLimitFormat(bucket, plan.monthlyQuota, this.rate),
      }
      this.buckets.set(bucket, terms)
    }
    return terms
  }
}

/** A grant's terms in one bucket: its count request and the format of its rate-limit headers. */
interface BucketTerms {
  request: CountRequest
  format: RateLimitFormat
}

/**
 * The grants of recently admitted keys, by key, in this process only. Bounded: it starts over past `RECENT_KEYS`
 * keys. A retired grant keeps its key's hash (SHA-256 costs ~0.7 µs), so checking the key again does not hash it.
 */
const RECENT_KEYS = 4096

class Grants {
  private readonly byKey = new Map<string, Grant>()
  /**
   * The key found last and its grant. A request's key is a new string each time, so finding it in the Map hashes
   * it (~85 ns for a key); comparing it with the last one costs ~8 ns, and a client sends its requests in runs.
   */
  private lastKey = ''
  private last: Grant | undefined

  get(key: string): Grant | undefined {
    if (key === this.lastKey) return this.last
    const grant = this.byKey.get(key)
    if (grant !== undefined) this.remember(key, grant)
    return grant
  }

  keep(key: string, grant: Grant): Grant {
    if (this.byKey.size >= RECENT_KEYS && !this.byKey.has(key)) this.byKey.clear()
    this.byKey.set(key, grant)
    this.remember(key, grant)
    return grant
  }

  private remember(key: string, grant: Grant): void {
    this.lastKey = key
    this.last = grant
  }
}

/** The admission of a counted call, or the quota/rate error of a refused one. */
function decide(grant: Grant, terms: BucketTerms, counted: CountResult): Admission {
  const admitted = new Admitted(grant, terms, counted)
  if (counted.outcome === 'admitted') return admitted
  const { quota, rate, headers } = admitted
  if (counted.outcome === 'quota_exceeded') {
    throw new ApiError(
      'quota_exceeded',
      `Monthly quota exceeded: ${quota.used} of ${quota.total} requests used. Usage returns to 0 at reset_time_at (see /api/v1/limits).`,
      { ...headers, 'Retry-After': String(secondsUntil(counted.quotaResetAt, counted.now)) },
    )
  }
  const retryAfter = String(rate.resetSeconds)
  throw new ApiError(
    'rate_limited',
    `Rate limit exceeded: ${rate.total} requests per ${rate.period} for ${terms.request.bucket}. Retry after ${retryAfter} seconds.`,
    { ...headers, 'Retry-After': retryAfter },
  )
}

/**
 * An admission as one object: the headers every response carries are made at once; the `quota` and `rate` views
 * (read by `limits` and the errors only) when asked for.
 */
class Admitted implements Admission {
  readonly userId: number
  readonly headers: RateLimitHeaders

  constructor(
    private readonly grant: Grant,
    terms: BucketTerms,
    private readonly counted: CountResult,
  ) {
    this.userId = grant.entry.record.userId
    const { quotaUsed, quotaResetAt, rateUsed, rateResetAt, now } = counted
    const { monthlyQuota } = grant.entry.record.plan
    this.headers = terms.format.headers(
      remaining(monthlyQuota, quotaUsed),
      secondsUntil(quotaResetAt, now),
      remaining(grant.rate.total, rateUsed),
      secondsUntil(rateResetAt, now),
    )
  }

  get quota(): Admission['quota'] {
    const total = this.grant.entry.record.plan.monthlyQuota
    const { quotaUsed, quotaResetAt } = this.counted
    return { total, used: quotaUsed, remaining: remaining(total, quotaUsed), resetAtMs: quotaResetAt }
  }

  get rate(): Admission['rate'] {
    const { period, total } = this.grant.rate
    const { rateUsed, rateResetAt, now } = this.counted
    return { period, total, remaining: remaining(total, rateUsed), resetSeconds: secondsUntil(rateResetAt, now) }
  }
}

function remaining(total: number, used: number): number {
  return Math.max(0, total - used)
}

/** Whole seconds from `now` until `resetAt`, at least 1. */
function secondsUntil(resetAt: number, now: number): number {
  return Math.max(1, Math.ceil((resetAt - now) / 1000))
}

/** The current entry of the account that holds the key with this hash, if the key is live and its access is on. */
function authenticate(records: AccountRecords, hash: string): MaybePromise<AccountEntry> {
  const entry = andThen(records.userIdOfKey(hash), (userId) => (userId === null ? null : records.account(userId)))
  return andThen(entry, (entry) => {
    const key = entry?.record.keys.find((candidate) => candidate.hash === hash)
    if (!entry || !key) throw new ApiError('api_key_invalid', KEY_ERROR_MESSAGES.api_key_invalid)
    if (key.revokedAt) throw new ApiError('api_key_revoked', KEY_ERROR_MESSAGES.api_key_revoked)
    if (!entry.record.apiAccess) throw new ApiError('api_access_deactivated', KEY_ERROR_MESSAGES.api_access_deactivated)
    return entry
  })
}

/** The hash of a key not remembered; a string that cannot be a key is refused before any hashing. */
function hashOfKey(key: string): string {
  if (!looksLikeApiKey(key)) throw new ApiError('api_key_invalid', KEY_ERROR_MESSAGES.api_key_invalid)
  return hashApiKey(key)
}
