import type Redis from 'ioredis'
import { createStorage } from 'unstorage'
import redisDriver from 'unstorage/drivers/redis'
import { QUOTA_WINDOW_MS } from '../plans.ts'
import type { Backend, CountRequest, CountResult, Counters } from './interface.ts'

/** Every key this service writes in Redis starts with this namespace. */
export const REDIS_BASE = 'scoring'
const NEXT_USER_ID_ITEM = 'access:next-user-id'

/**
 * Check both windows, then count the call in both, in one script: Redis runs it atomically, so every server
 * instance on this Redis shares exact counters. Expiry is set when a window opens (PTTL < 0: absent or unset).
 * Returns { outcome (0 admitted, 1 quota exceeded, 2 rate limited), quota used, quota ttl, rate used, rate ttl }.
 */
const COUNT_SCRIPT = `
local quotaUsed = tonumber(redis.call('GET', KEYS[1]) or '0')
local quotaTtl = redis.call('PTTL', KEYS[1])
local rateUsed = tonumber(redis.call('GET', KEYS[2]) or '0')
local rateTtl = redis.call('PTTL', KEYS[2])
if quotaUsed >= tonumber(ARGV[1]) then return {1, quotaUsed, quotaTtl, rateUsed, rateTtl} end
if rateUsed >= tonumber(ARGV[3]) then return {2, quotaUsed, quotaTtl, rateUsed, rateTtl} end
quotaUsed = redis.call('INCR', KEYS[1])
if quotaTtl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); quotaTtl = tonumber(ARGV[2]) end
rateUsed = redis.call('INCR', KEYS[2])
if rateTtl < 0 then redis.call('PEXPIRE', KEYS[2], ARGV[4]); rateTtl = tonumber(ARGV[4]) end
return {0, quotaUsed, quotaTtl, rateUsed, rateTtl}
`
const OUTCOMES = ['admitted', 'quota_exceeded', 'rate_limited'] as const

type ScriptedRedis = Redis & {
  countAccess(quotaKey: string, rateKey: string, ...args: number[]): Promise<[number, number, number, number, number]>
}

/**
 * The scale-out backend: records and response cache through unstorage's Redis driver, counters through a Lua
 * script on the driver's own ioredis client. Several server instances on one Redis share one quota per account.
 */
export async function openRedisBackend(url: string): Promise<Backend> {
  const driver = redisDriver({ url, base: REDIS_BASE, enableAutoPipelining: true })
  const storage = createStorage({ driver })
  const client = driver.getInstance!() as ScriptedRedis
  client.defineCommand('countAccess', { numberOfKeys: 2, lua: COUNT_SCRIPT })
  await client.ping()
  return {
    storage,
    counters: new RedisCounters(client),
    async nextUserId() {
      return client.incr(`${REDIS_BASE}:${NEXT_USER_ID_ITEM}`)
    },
    async close() {
      await client.quit()
      await storage.dispose()
    },
  }
}

/** `{userId}` is a hash tag: an account's counters share one cluster slot, as a multi-key script requires. */
const quotaKey = (userId: number) => `${REDIS_BASE}:counters:{${userId}}:quota`
const rateKey = (userId: number, bucket: string, windowMs: number) =>
  `${REDIS_BASE}:counters:{${userId}}:rate:${bucket}:${windowMs}`

class RedisCounters implements Counters {
  constructor(private readonly client: ScriptedRedis) {}

  async count({ userId, bucket, quotaTotal, rateTotal, rateWindowMs }: CountRequest): Promise<CountResult> {
    const [outcome, quotaUsed, quotaTtl, rateUsed, rateTtl] = await this.client.countAccess(
      quotaKey(userId),
      rateKey(userId, bucket, rateWindowMs),
      quotaTotal,
      QUOTA_WINDOW_MS,
      rateTotal,
      rateWindowMs,
    )
    return {
      outcome: OUTCOMES[outcome],
      quotaUsed,
      quotaResetMs: quotaTtl > 0 ? quotaTtl : QUOTA_WINDOW_MS,
      rateUsed,
      rateResetMs: rateTtl > 0 ? rateTtl : rateWindowMs,
    }
  }

  async quota(userId: number): Promise<{ used: number; resetMs: number } | null> {
    const replies = await this.client.multi().get(quotaKey(userId)).pttl(quotaKey(userId)).exec()
    const [[, used], [, ttl]] = replies as [[null, string | null], [null, number]]
    return used === null || ttl <= 0 ? null : { used: Number(used), resetMs: ttl }
  }
}
