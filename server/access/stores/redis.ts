import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import type Redis from 'ioredis'
import { createStorage } from 'unstorage'
import redisDriver from 'unstorage/drivers/redis'
import { log } from '../../../log/logger.ts'
import { acquire, LOCK_STALE_MS } from './locks.ts'
import { QUOTA_WINDOW_MS } from '../plans.ts'
import { createResponseCache } from '../response-cache.ts'
import type { Backend, CountRequest, CountResult, Counters } from './interface.ts'

/** Every key this service writes in Redis starts with this namespace. */
const REDIS_BASE = 'scoring'
const NEXT_USER_ID_ITEM = 'access:next-user-id'

/**
 * Check both windows, then count the call in both, in one script: Redis runs it atomically, so every server
 * instance on this Redis shares exact counters. A window is a hash { count, reset_at } that expires at reset_at
 * (epoch ms on Redis' clock, so all instances report the same reset time).
 * Returns { outcome (0 admitted, 1 quota exceeded, 2 rate limited), quota used, quota reset_at, rate used,
 * rate reset_at, now }.
 */
const COUNT_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local function window(key, windowMs)
  local state = redis.call('HMGET', key, 'count', 'reset_at')
  local resetAt = tonumber(state[2])
  if resetAt == nil or resetAt <= now then return 0, now + windowMs end
  return tonumber(state[1]), resetAt
end
local function count(key, used, resetAt)
  redis.call('HSET', key, 'count', used, 'reset_at', resetAt)
  redis.call('PEXPIREAT', key, resetAt)
end
local quotaUsed, quotaResetAt = window(KEYS[1], tonumber(ARGV[2]))
local rateUsed, rateResetAt = window(KEYS[2], tonumber(ARGV[4]))
local outcome = 0
if quotaUsed >= tonumber(ARGV[1]) then outcome = 1
elseif rateUsed >= tonumber(ARGV[3]) then outcome = 2
else
  quotaUsed = quotaUsed + 1
  rateUsed = rateUsed + 1
  count(KEYS[1], quotaUsed, quotaResetAt)
  count(KEYS[2], rateUsed, rateResetAt)
end
return {outcome, quotaUsed, quotaResetAt, rateUsed, rateResetAt, now}
`
const OUTCOMES = ['admitted', 'quota_exceeded', 'rate_limited'] as const

type ScriptedRedis = Redis & {
  countAccess(quotaKey: string, rateKey: string, ...args: number[]): Promise<[number, number, number, number, number, number]>
}

/**
 * How the client meets an outage: a command waits at most `commandTimeout` ms for its answer (a paused Redis; each
 * is sent as it comes: ioredis' auto-pipelining would hold it while an earlier batch waits, up to twice as long), and
 * none waits for a reconnection (`enableOfflineQueue: false`: a stopped Redis fails commands at once). Either way
 * the request answers `server_error` at once, nothing is admitted uncounted, and the client reconnects on its own
 * (ioredis' retry strategy) so requests succeed again as soon as Redis is back.
 */
const REDIS_CLIENT_OPTIONS = {
  commandTimeout: 1000,
  maxRetriesPerRequest: 0,
  enableOfflineQueue: false,
} as const

/** Connection errors are logged as JSON lines, at most one per this interval (a down Redis repeats them). */
const ERROR_LOG_INTERVAL_MS = 10_000

/**
 * The scale-out backend: records and response cache through unstorage's Redis driver, counters through a Lua
 * script on the driver's own ioredis client. Several server instances on one Redis share one quota per account.
 */
export async function openRedisBackend(url: string): Promise<Backend> {
  const driver = redisDriver({ url, base: REDIS_BASE, ...REDIS_CLIENT_OPTIONS })
  const storage = createStorage({ driver })
  const client = driver.getInstance!() as ScriptedRedis
  logErrors(client)
  client.defineCommand('countAccess', { numberOfKeys: 2, lua: COUNT_SCRIPT })
  await ready(client)
  await client.ping()
  return {
    storage,
    counters: new RedisCounters(client),
    cache: createResponseCache(storage, 'text'),
    async nextUserId() {
      return client.incr(`${REDIS_BASE}:${NEXT_USER_ID_ITEM}`)
    },
    exclusive: (name, change) => withRedisLock(client, `${REDIS_BASE}:locks:${name}`, change),
    async close() {
      // (a Redis that is down cannot be asked to close the connection: then it is dropped)
      await client.quit().catch(() => client.disconnect())
      await storage.dispose()
    },
  }
}

/** Resolves once the client is connected, rejects with the first connection error (Redis down at start). */
async function ready(client: Redis): Promise<void> {
  if (client.status === 'ready') return
  // `once` rejects when the client emits `error` first
  await once(client, 'ready').catch((error) => {
    client.disconnect()
    throw error
  })
}

/** One JSON log line per error message and interval, instead of ioredis' own lines on stderr. */
function logErrors(client: Redis): void {
  const lastLogged = new Map<string, number>()
  client.on('error', (error: Error) => {
    const now = Date.now()
    if (now - (lastLogged.get(error.message) ?? -Infinity) < ERROR_LOG_INTERVAL_MS) return
    lastLogged.set(error.message, now)
    log.warn('redis.error', { error: error.message, status: client.status })
  })
}

/** Releases the lock only if it is still this holder's (its token), so a taken-over lock is never released by the old holder. */
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`

/**
 * `change` under `SET key token NX PX`: one holder at a time across every process on this Redis; a holder that died
 * loses the lock after `LOCK_STALE_MS`.
 */
async function withRedisLock<T>(client: Redis, key: string, change: () => Promise<T>): Promise<T> {
  const token = randomUUID()
  await acquire(async () => (await client.set(key, token, 'PX', LOCK_STALE_MS, 'NX')) === 'OK', key)
  try {
    return await change()
  } finally {
    await client.eval(RELEASE_SCRIPT, 1, key, token)
  }
}

/** `{userId}` is a hash tag: an account's counters share one cluster slot, as a multi-key script requires. */
const quotaKey = (userId: number) => `${REDIS_BASE}:counters:{${userId}}:quota`
const rateKey = (userId: number, bucket: string, windowMs: number) =>
  `${REDIS_BASE}:counters:{${userId}}:rate:${bucket}:${windowMs}`

class RedisCounters implements Counters {
  constructor(private readonly client: ScriptedRedis) {}

  async count({ userId, bucket, quotaTotal, rateTotal, rateWindowMs }: CountRequest): Promise<CountResult> {
    const [outcome, quotaUsed, quotaResetAt, rateUsed, rateResetAt, now] = await this.client.countAccess(
      quotaKey(userId),
      rateKey(userId, bucket, rateWindowMs),
      quotaTotal,
      QUOTA_WINDOW_MS,
      rateTotal,
      rateWindowMs,
    )
    return { outcome: OUTCOMES[outcome], quotaUsed, quotaResetAt, rateUsed, rateResetAt, now }
  }

  async quota(userId: number): Promise<{ used: number; resetAt: number } | null> {
    const [used, resetAt] = await this.client.hmget(quotaKey(userId), 'count', 'reset_at')
    return used === null || Number(resetAt) <= Date.now() ? null : { used: Number(used), resetAt: Number(resetAt) }
  }
}
