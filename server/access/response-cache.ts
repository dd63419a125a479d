import { createHash } from 'node:crypto'
import type { Storage } from 'unstorage'
import type { ResponseCache } from './types.ts'

/**
 * The response cache on unstorage (the `lru-cache` driver in this process, or Redis): bodies under
 * `cache:<sha256 of the cache key>` (hashing keeps any key text, `?`, `/` or `:` included, from being rewritten by
 * unstorage's key normalisation). Each entry carries its own expiry, so it is never served past it, whenever the
 * driver frees it.
 * @example await cache.set('get_alpha?days=7@snap', body, 300); await cache.get('get_alpha?days=7@snap')
 */
export function createResponseCache(storage: Storage): ResponseCache {
  const item = (key: string) => `cache:${createHash('sha256').update(key).digest('hex')}`
  return {
    async get(key) {
      const entry = await storage.getItemRaw<string>(item(key))
      if (typeof entry !== 'string') return null
      const split = entry.indexOf('\n')
      if (Number(entry.slice(0, split)) <= Date.now()) return null
      return entry.slice(split + 1)
    },
    async set(key, body, ttlSeconds) {
      if (!(ttlSeconds > 0)) return
      await storage.setItemRaw(item(key), `${Date.now() + ttlSeconds * 1000}\n${body}`, { ttl: Math.ceil(ttlSeconds) })
    },
  }
}
