/**
 * The access layer's contract with the server and the operator CLI: authenticate a key, count the monthly quota and
 * the per-bucket rate, cache response bodies, and administer accounts, plans and keys.
 */

/** What a request offers to authenticate with; see `readApiKey` for which credential wins. */
export interface Credentials {
  /** Request header fields by lower-case name (a `Headers` is one). */
  headers: Pick<Headers, 'get'>
  query: URLSearchParams
}

export type RatePeriod = 'second' | 'minute' | 'hour' | 'day'

/** The outcome of a request that passed authentication, the monthly quota and the bucket's rate. */
export interface Admission {
  userId: number
  /** `used` includes this call; `resetAtMs`: when the window returns to 0 (epoch milliseconds). */
  quota: { total: number; used: number; remaining: number; resetAtMs: number }
  rate: { period: RatePeriod; total: number; remaining: number; resetSeconds: number }
  /** Standard rate-limit headers for the response (errors carry the same headers on their `ApiError`). */
  headers: RateLimitHeaders
}

/** The IETF rate-limit fields of a response, by their lower-case names (see `rate-limit-headers.ts`). */
export interface RateLimitHeaders {
  'ratelimit-policy': string
  ratelimit: string
}

export interface AccessControl {
  /**
   * Authenticate the key, count the monthly quota and the bucket's rate, atomically. Throws `ApiError` with
   * api_key_missing | api_key_invalid | api_key_revoked | api_access_deactivated | quota_exceeded | rate_limited
   * (the last two carry `Retry-After` in seconds ≥ 1 next to the rate-limit headers).
   * @example const admission = await access.admit({ headers, query }, 'api-get-alpha')
   */
  admit(credentials: Credentials, bucket: string): Promise<Admission>
}

/** Success bodies (JSON text) under a key, each with its own expiry. */
export interface ResponseCache {
  get(key: string): Promise<string | null>
  set(key: string, body: string, ttlSeconds: number): Promise<void>
}

/** A plan: the monthly quota and the rate string (`<total>/<second|minute|hour|day>`, unknown unit → minute). */
export interface Plan {
  monthlyQuota: number
  rate: string
}

/** A key as the operator sees it: never the raw key, only a fingerprint of its hash. */
export interface KeyInfo {
  name: string
  /** The first 12 hex digits of the key's SHA-256 hash. */
  fingerprint: string
  createdAt: string
  revokedAt: string | null
}

export interface Account {
  userId: number
  plan: Plan
  apiAccess: boolean
  createdAt: string
  keys: KeyInfo[]
}

export interface Usage {
  userId: number
  quota: { total: number; used: number; remaining: number; resetAt: Date | null }
  rate: { period: RatePeriod; total: number }
}

/** Operator actions, used by `scripts/keys.ts` and the tests. Unknown accounts or keys throw `AccessAdminError`. */
export interface AccessAdmin {
  createAccount(plan?: Partial<Plan>): Promise<Account>
  getAccount(userId: number): Promise<Account>
  listAccounts(): Promise<Account[]>
  setPlan(userId: number, plan: Partial<Plan>): Promise<Account>
  /** Returns the raw key: the only time it exists outside the caller's hands. */
  createKey(userId: number, name: string): Promise<{ key: string; info: KeyInfo }>
  listKeys(userId: number): Promise<KeyInfo[]>
  revokeKey(userId: number, name: string): Promise<KeyInfo>
  setApiAccess(userId: number, enabled: boolean): Promise<Account>
  usage(userId: number): Promise<Usage>
}

export interface StorageConfig {
  driver: 'embedded' | 'redis'
  dataDir: string
  redisUrl?: string
  /** Memory bound of the embedded response cache in bytes (Redis bounds its own memory). */
  cacheMaxBytes?: number
}

export interface AccessServices {
  access: AccessControl
  cache: ResponseCache
  admin: AccessAdmin
  /** Persist what is pending (embedded counters) and release the storage. */
  close(): Promise<void>
}
