import type { Storage } from 'unstorage'
import type { ResponseCache } from '../types.ts'

/** One call's request to the counters: the account's monthly quota and its rate in one operation bucket. */
export interface CountRequest {
  userId: number
  bucket: string
  quotaTotal: number
  rateTotal: number
  rateWindowMs: number
}

/** A fixed window of a counter: the calls counted in it, and when it ends (epoch ms). */
export interface CounterWindow {
  count: number
  expiresAt: number
}

/**
 * What the counters decided. Only an admitted call is counted (in both counters); a refused one changes nothing.
 * Times are epoch milliseconds on the counters' own clock (Redis' clock for Redis), so every instance reports the
 * same reset time; a window not open yet would reset one full window after `now`.
 */
export interface CountResult {
  outcome: 'admitted' | 'quota_exceeded' | 'rate_limited'
  quotaUsed: number
  quotaResetAt: number
  rateUsed: number
  rateResetAt: number
  now: number
}

/** Atomic fixed-window counters. Check and increment happen as one step, so concurrent calls never overshoot. */
export interface Counters {
  count(request: CountRequest): Promise<CountResult>
  /** The monthly counter as it stands, without counting. */
  quota(userId: number): Promise<{ used: number; resetAt: number } | null>
}

/**
 * A storage backend: unstorage for the records (accounts, key index), counters that are exact under concurrency,
 * which unstorage alone cannot give, and the response cache.
 */
export interface Backend {
  storage: Storage
  counters: Counters
  /** Success bodies of the API, each with its own expiry. */
  cache: ResponseCache
  /** A fresh account id, unique even when several processes create accounts. */
  nextUserId(): Promise<number>
  /**
   * Runs `change` while no other holder of the lock `name` runs, in this process or another on the same store
   * (the operator's read-edit-write of an account record).
   */
  exclusive<T>(name: string, change: () => Promise<T>): Promise<T>
  close(): Promise<void>
}
