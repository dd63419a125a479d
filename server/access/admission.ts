import { ApiError } from '../errors.ts'
import { hashApiKey, looksLikeApiKey } from './api-keys.ts'
import type { Counters } from './stores/interface.ts'
import { readApiKey } from './credentials.ts'
import { PERIOD_MS, parseRate } from './plans.ts'
import { rateLimitHeaders } from './rate-limit-headers.ts'
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
 * @example const admission = await createAccessControl(records, counters).admit({ headers, query }, 'api-get-alpha')
 */
export function createAccessControl(records: AccountRecords, counters: Counters): AccessControl {
  return {
    async admit(credentials: Credentials, bucket: string): Promise<Admission> {
      const credential = readApiKey(credentials)
      if (credential === 'invalid') throw keyError('api_key_invalid')
      if (!credential) throw keyError('api_key_missing')
      const record = await authenticate(records, credential.key)
      const rate = parseRate(record.plan.rate)
      const counted = await counters.count({
        userId: record.userId,
        bucket,
        quotaTotal: record.plan.monthlyQuota,
        rateTotal: rate.total,
        rateWindowMs: PERIOD_MS[rate.period],
      })
      const quota = {
        total: record.plan.monthlyQuota,
        used: counted.quotaUsed,
        remaining: Math.max(0, record.plan.monthlyQuota - counted.quotaUsed),
        resetAtMs: counted.quotaResetAt,
      }
      const quotaResetSeconds = secondsUntil(counted.quotaResetAt, counted.now)
      const rateView = {
        period: rate.period,
        total: rate.total,
        remaining: Math.max(0, rate.total - counted.rateUsed),
        resetSeconds: secondsUntil(counted.rateResetAt, counted.now),
      }
      const headers = rateLimitHeaders(bucket, record.plan.monthlyQuota, rate, {
        quotaRemaining: quota.remaining,
        quotaResetSeconds,
        rateRemaining: rateView.remaining,
        rateResetSeconds: rateView.resetSeconds,
      })
      // a refused call: its error carries the rate-limit headers and `Retry-After`
      if (counted.outcome === 'quota_exceeded') {
        throw new ApiError(
          'quota_exceeded',
          `Monthly quota exceeded: ${quota.used} of ${quota.total} requests used. Usage returns to 0 at reset_time_at (see /api/v1/limits).`,
          { ...headers, 'Retry-After': String(quotaResetSeconds) },
        )
      }
      if (counted.outcome === 'rate_limited') {
        throw new ApiError(
          'rate_limited',
          `Rate limit exceeded: ${rate.total} requests per ${rate.period} for ${bucket}. Retry after ${rateView.resetSeconds} seconds.`,
          { ...headers, 'Retry-After': String(rateView.resetSeconds) },
        )
      }
      return { userId: record.userId, quota, rate: rateView, headers }
    },
  }
}

/** Whole seconds from `now` until `resetAt`, at least 1. */
function secondsUntil(resetAt: number, now: number): number {
  return Math.max(1, Math.ceil((resetAt - now) / 1000))
}

function keyError(code: keyof typeof KEY_ERROR_MESSAGES): ApiError {
  return new ApiError(code, KEY_ERROR_MESSAGES[code])
}

/** The record of the account that holds this key, if the key is live and its access is on. */
async function authenticate(records: AccountRecords, key: string): Promise<AccountRecord> {
  // a string that cannot be a key is refused before any hashing or storage read
  if (!looksLikeApiKey(key)) throw keyError('api_key_invalid')
  const hash = hashApiKey(key)
  const userId = await records.userIdOfKey(hash)
  const record = userId === null ? null : await records.account(userId)
  const stored = record?.keys.find((candidate) => candidate.hash === hash)
  if (!record || !stored) throw keyError('api_key_invalid')
  if (stored.revokedAt) throw keyError('api_key_revoked')
  if (!record.apiAccess) throw keyError('api_access_deactivated')
  return record
}
