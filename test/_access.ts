/**
 * Helpers of the access tests: credentials as a request carries them, outcomes as a client sees them, accounts with
 * keys, and the two stores (the embedded one in a temporary folder, a real redis-server) with a dump of everything
 * they hold, to search for secrets.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import Redis from 'ioredis'
import * as assert from 'uvu/assert'
import { ApiError } from '../server/errors.ts'
import type { AccessServices, Admission, Credentials, StorageConfig } from '../server/access/index.ts'
import { tempDir as fixtureTempDir } from './_fixtures.ts'
import { startRedis, type RedisServer } from './_redis.ts'

export type Method = 'header' | 'bearer' | 'query'
export const METHODS: Method[] = ['header', 'bearer', 'query']

export function credentials(parts: Partial<Record<Method, string>>): Credentials {
  const headers = new Headers()
  if (parts.header !== undefined) headers.set('X-API-Key', parts.header)
  if (parts.bearer !== undefined) headers.set('Authorization', `Bearer ${parts.bearer}`)
  const query = new URLSearchParams(parts.query !== undefined ? { api_key: parts.query } : {})
  return { headers, query }
}

/**
 * Runs `admit` (which answers or throws at once with the embedded store, or returns a promise) to its outcome: 'ok'
 * or the error code, so a test states outcomes the way a client sees them.
 */
export async function outcome(admit: () => Promise<Admission>): Promise<string> {
  return Promise.resolve().then(admit).then(
    () => 'ok',
    (error) => {
      if (!(error instanceof ApiError)) throw error
      return error.code
    },
  )
}

export async function refusal(admit: () => Promise<Admission>): Promise<ApiError> {
  const error = await Promise.resolve().then(admit).then(() => null, (error: unknown) => error)
  assert.instance(error, ApiError, 'expected the call to be refused')
  return error as ApiError
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
export const tempDir = (label: string) => fixtureTempDir(`access-${label}`)

export interface Store {
  config(): StorageConfig
  /** Everything the store holds, as text, to search for secrets. */
  dump(): Promise<string>
  /** Moves the end of an account's monthly window to `resetAt` (epoch ms), in the store itself; services closed. */
  moveQuotaReset(userId: number, resetAt: number): Promise<void>
  stop(): Promise<void>
}

export interface Context {
  store: Store
  services: AccessServices
  /** Every raw key issued by the suite, checked against the store at the end. */
  issued: string[]
}

/** A fresh account with one key per name; the keys are remembered for the final secrets check. */
export async function account(ctx: Context, plan: { monthlyQuota?: number; rate?: string } = {}, names = ['main']) {
  const created = await ctx.services.admin.createAccount(plan)
  const keys: string[] = []
  for (const name of names) keys.push((await ctx.services.admin.createKey(created.userId, name)).key)
  ctx.issued.push(...keys)
  return { userId: created.userId, keys, key: keys[0] }
}

export function embeddedStore(dataDir = tempDir('embedded')): Store {
  return {
    config: () => ({ driver: 'embedded', dataDir }),
    async dump() {
      const files = fs.readdirSync(dataDir, { recursive: true, encoding: 'utf8' })
      return files
        .map((file) => path.join(dataDir, file))
        .filter((file) => fs.statSync(file).isFile())
        .map((file) => `${file}\n${fs.readFileSync(file, 'utf8')}`)
        .join('\n')
    },
    async moveQuotaReset(userId, resetAt) {
      const file = path.join(dataDir, 'counters.json')
      const windows = JSON.parse(fs.readFileSync(file, 'utf8'))
      assert.ok(windows[`quota:${userId}`], 'the window is stored')
      windows[`quota:${userId}`].expiresAt = resetAt
      fs.writeFileSync(file, JSON.stringify(windows))
    },
    async stop() {},
  }
}

export async function redisStore(): Promise<Store & { url: string }> {
  const redis: RedisServer = await startRedis()
  return {
    url: redis.url,
    config: () => ({ driver: 'redis', dataDir: tempDir('unused'), redisUrl: redis.url }),
    async dump() {
      const client = new Redis(redis.url)
      const keys = await client.keys('*')
      // each value read as its type (DUMP's format compresses values, which would hide a key inside them)
      const values = await Promise.all(
        keys.map(async (key) => {
          const type = await client.type(key)
          if (type === 'string') return client.get(key)
          if (type === 'hash') return JSON.stringify(await client.hgetall(key))
          if (type === 'set') return JSON.stringify(await client.smembers(key))
          if (type === 'list') return JSON.stringify(await client.lrange(key, 0, -1))
          if (type === 'zset') return JSON.stringify(await client.zrange(key, 0, -1, 'WITHSCORES'))
          throw new Error(`unexpected Redis type ${type} of ${key}`)
        }),
      )
      await client.quit()
      return keys.map((key, i) => `${key}\n${values[i]}`).join('\n')
    },
    async moveQuotaReset(userId, resetAt) {
      const client = new Redis(redis.url)
      const key = `scoring:counters:{${userId}}:quota`
      assert.is(await client.exists(key), 1, 'the window is stored')
      await client.hset(key, 'reset_at', resetAt)
      await client.pexpireat(key, resetAt)
      await client.quit()
    },
    stop: () => redis.stop(),
  }
}
