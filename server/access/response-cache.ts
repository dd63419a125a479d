import { createHash } from 'node:crypto'
import type { Storage } from 'unstorage'
import type { ResponseCache } from './types.ts'

/** An entry: its expiry (epoch ms, float64 little-endian), then the body. */
const EXPIRY_BYTES = 8

/**
 * The response cache on unstorage (the `lru-cache` driver in this process, or Redis): bodies under
 * `cache:<sha256 of the cache key>` (hashing keeps any key text, `?`, `/` or `:` included, from being rewritten by
 * unstorage's key normalisation). Each entry carries its own expiry, so it is never served past it, whenever the
 * driver frees it. Entries are bytes, which live outside the JS heap: a full cache costs the garbage collector
 * nothing to walk or move.
 * @example await cache.set('get_alpha?days=7@snap', body, 300); await cache.get('get_alpha?days=7@snap')
 */
export function createResponseCache(storage: Storage): ResponseCache {
  const item = (key: string) => `cache:${createHash('sha256').update(key).digest('hex')}`
  return {
    async get(key) {
      const entry = await storage.getItemRaw<Uint8Array>(item(key))
      if (!(entry instanceof Uint8Array) || entry.length < EXPIRY_BYTES) return null
      const expiresAt = Buffer.from(entry.buffer, entry.byteOffset, entry.length).readDoubleLE(0)
      return expiresAt > Date.now() ? entry.subarray(EXPIRY_BYTES) : null
    },
    async set(key, body, ttlSeconds) {
      if (!(ttlSeconds > 0)) return
      const entry = Buffer.alloc(EXPIRY_BYTES + body.length)
      entry.writeDoubleLE(Date.now() + ttlSeconds * 1000, 0)
      entry.set(body, EXPIRY_BYTES)
      await storage.setItemRaw(item(key), entry, { ttl: Math.ceil(ttlSeconds) })
    },
  }
}
