import { createHash } from 'node:crypto'
import type { Storage } from 'unstorage'
import type { ResponseCache } from './types.ts'

/** A bytes entry: its expiry (epoch ms, float64 little-endian), then the UTF-8 body. A text entry: `<expiry>\n<body>`. */
const EXPIRY_BYTES = 8

/**
 * The response cache on unstorage (the `lru-cache` driver in this process, or Redis): bodies under
 * `cache:<sha256 of the cache key>` (hashing keeps any key text, `?`, `/` or `:` included, from being rewritten by
 * unstorage's key normalisation). Each entry carries its own expiry, so it is never served past it, whenever the
 * driver frees it. In this process entries are `bytes`, which live outside the JS heap (a full cache costs the
 * garbage collector nothing to walk or move); in Redis they are `text` (unstorage would store bytes as base64). The
 * body goes in and out as text: a response whose body is a string is written to the socket in one call.
 * @example await cache.set('get_alpha?days=7@snap', body, 300); await cache.get('get_alpha?days=7@snap')
 */
export function createResponseCache(storage: Storage, entries: 'bytes' | 'text'): ResponseCache {
  const item = (key: string) => `cache:${createHash('sha256').update(key).digest('hex')}`
  return {
    async get(key) {
      const entry = await storage.getItemRaw<Uint8Array | string>(item(key))
      if (typeof entry === 'string') {
        const split = entry.indexOf('\n')
        return Number(entry.slice(0, split)) > Date.now() ? entry.slice(split + 1) : null
      }
      if (!(entry instanceof Uint8Array) || entry.length < EXPIRY_BYTES) return null
      const bytes = Buffer.from(entry.buffer, entry.byteOffset, entry.length)
      return bytes.readDoubleLE(0) > Date.now() ? bytes.toString('utf8', EXPIRY_BYTES) : null
    },
    async set(key, body, ttlSeconds) {
      if (!(ttlSeconds > 0)) return
      const expiresAt = Date.now() + ttlSeconds * 1000
      const entry = entries === 'bytes' ? bytesEntry(expiresAt, body) : `${expiresAt}\n${body}`
      await storage.setItemRaw(item(key), entry, { ttl: Math.ceil(ttlSeconds) })
    },
  }
}

function bytesEntry(expiresAt: number, body: string): Buffer {
  const entry = Buffer.alloc(EXPIRY_BYTES + Buffer.byteLength(body))
  entry.writeDoubleLE(expiresAt, 0)
  entry.write(body, EXPIRY_BYTES, 'utf8')
  return entry
}
