import type { Storage } from 'unstorage'
import type { MaybePromise } from '../../internal/maybe_promise.ts'
import type { ResponseCache } from '../types.ts'

/** One call's request to the counters: the account's monthly quota and its rate in one operation bucket. */
export interface CountRequest {
  userId: number
  bucket: string
  quotaTotal: number
  rateTotal: number
  rateWindowMs: number
  /**
   * Kept by the caller for this account, bucket and plan, and passed with each of its counts: a backend may leave
   * here what it found (the embedded one: the two windows), so that the next count finds them without looking them
   * up. Redis keeps nothing in it.
   */
  memo?: CounterMemo
}

/** A fixed window of a counter: the calls counted in it, and when it ends (epoch ms). */
export interface CounterWindow {
  count: number
  expiresAt: number
}

/** See `CountRequest.memo`. */
export interface CounterMemo {
  quota?: CounterWindow
  rate?: CounterWindow
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

/**
 * Atomic fixed-window counters. Check and increment happen as one step, so concurrent calls never overshoot.
 * Counters in this process (embedded) answer at once; shared ones (Redis) with a promise.
 */
export interface Counters {
  count(request: CountRequest): MaybePromise<CountResult>
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
