import { ApiError } from '../errors.ts'
import { andThen, type MaybePromise } from '../internal/maybe_promise.ts'
import { hashApiKey, looksLikeApiKey } from './api-keys.ts'
import type { CountResult, Counters } from './backends/interface.ts'
import { readApiKey } from './credentials.ts'
import { PERIOD_MS, parseRate, type Rate } from './plans.ts'
import { rateLimitHeaders, rateLimitPolicy } from './rate-limit-headers.ts'
import type { AccountRecord, AccountRecords } from './records.ts'
import type { AccessControl, Admission, Credentials } from './types.ts'

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
 */
export function createAccessControl(records: AccountRecords, counters: Counters): AccessControl {
  return {
    admit(credentials: Credentials, bucket: string): MaybePromise<Admission> {
      return andThen(authenticate(records, credentials), (account) => {
        const terms = planTerms(account)
        const counting = counters.count({
          userId: account.userId,
          bucket,
          quotaTotal: account.plan.monthlyQuota,
          rateTotal: terms.rate.total,
          rateWindowMs: terms.rateWindowMs,
        })
        return andThen(counting, (counted) => decide(account, terms, bucket, counted))
      })
    },
  }
}

/** The admission of a counted call, or the quota/rate error of a refused one. */
function decide(account: AccountRecord, terms: PlanTerms, bucket: string, counted: CountResult): Admission {
  const { plan } = account
  const { rate } = terms
  const quota = {
    total: plan.monthlyQuota,
    used: counted.quotaUsed,
    remaining: Math.max(0, plan.monthlyQuota - counted.quotaUsed),
    resetAt: new Date(counted.quotaResetAt),
  }
  const rateNow = {
    period: rate.period,
    total: rate.total,
    remaining: Math.max(0, rate.total - counted.rateUsed),
    resetSeconds: secondsUntil(counted.rateResetAt, counted.now),
  }
  const quotaResetSeconds = secondsUntil(counted.quotaResetAt, counted.now)
  const headers = rateLimitHeaders(terms.policies(bucket), bucket, quota, rateNow, quotaResetSeconds)
  if (counted.outcome === 'quota_exceeded') {
    throw new ApiError(
      'quota_exceeded',
      `Monthly quota exceeded: ${quota.used} of ${quota.total} requests used. Usage returns to 0 at reset_time_at (see /api/v1/limits).`,
      { ...headers, 'Retry-After': String(quotaResetSeconds) },
    )
  }
  if (counted.outcome === 'rate_limited') {
    const retryAfter = String(rateNow.resetSeconds)
    throw new ApiError(
      'rate_limited',
      `Rate limit exceeded: ${rate.total} requests per ${rate.period} for ${bucket}. Retry after ${retryAfter} seconds.`,
      { ...headers, 'Retry-After': retryAfter },
    )
  }
  return { userId: account.userId, quota, rate: rateNow, headers }
}

/** Whole seconds from `now` until `resetAt`, at least 1. */
function secondsUntil(resetAt: number, now: number): number {
  return Math.max(1, Math.ceil((resetAt - now) / 1000))
}

/** An account record's plan read once: its parsed rate and the `RateLimit-Policy` value per bucket. */
interface PlanTerms {
  rate: Rate
  rateWindowMs: number
  policies(bucket: string): string
}

/**
 * The terms of the record's plan, computed once per record object (records are re-read at most once a second, and
 * a changed plan comes with a new record), so a request neither parses the rate nor formats the policy header.
 */
const termsOfRecord = new WeakMap<AccountRecord, PlanTerms>()
function planTerms(account: AccountRecord): PlanTerms {
  let terms = termsOfRecord.get(account)
  if (!terms) {
    const rate = parseRate(account.plan.rate)
    const byBucket = new Map<string, string>()
    terms = {
      rate,
      rateWindowMs: PERIOD_MS[rate.period],
      policies(bucket) {
        let policy = byBucket.get(bucket)
        if (policy === undefined) byBucket.set(bucket, (policy = rateLimitPolicy(bucket, account.plan.monthlyQuota, rate)))
        return policy
      },
    }
    termsOfRecord.set(account, terms)
  }
  return terms
}

function authenticate(records: AccountRecords, credentials: Credentials): MaybePromise<AccountRecord> {
  const credential = readApiKey(credentials)
  if (!credential) throw new ApiError('api_key_missing', KEY_ERROR_MESSAGES.api_key_missing)
  const known = recentHashes.get(credential.key)
  const hash = known ?? hashOfKey(credential.key)
  const account = andThen(records.userIdOfKey(hash), (userId) => (userId === null ? null : records.account(userId)))
  return andThen(account, (account) => {
    const key = account?.keys.find((candidate) => candidate.hash === hash)
    if (!account || !key) throw new ApiError('api_key_invalid', KEY_ERROR_MESSAGES.api_key_invalid)
    if (key.revokedAt) throw new ApiError('api_key_revoked', KEY_ERROR_MESSAGES.api_key_revoked)
    if (!account.apiAccess) throw new ApiError('api_access_deactivated', KEY_ERROR_MESSAGES.api_access_deactivated)
    if (known === undefined) rememberHash(credential.key, hash)
    return account
  })
}

/**
 * The hashes of the keys that named an account recently, in this process only (a key is sent on every request of
 * its client: SHA-256 cost ~0.7 µs a request). Bounded: it starts over past `RECENT_KEYS` keys. Whether a key is
 * revoked or its account deactivated is checked on the account record every time, never remembered here.
 */
const RECENT_KEYS = 4096
const recentHashes = new Map<string, string>()

function rememberHash(key: string, hash: string): void {
  if (recentHashes.size >= RECENT_KEYS && !recentHashes.has(key)) recentHashes.clear()
  recentHashes.set(key, hash)
}

/** The hash of a key not remembered; a string that cannot be a key is refused before any hashing. */
function hashOfKey(key: string): string {
  if (!looksLikeApiKey(key)) throw new ApiError('api_key_invalid', KEY_ERROR_MESSAGES.api_key_invalid)
  return hashApiKey(key)
}
