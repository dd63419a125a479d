import type { ResponseCache } from '../types.ts'

interface Entry {
  body: string
  expiresAt: number
  size: number
}

/**
 * The embedded response cache: a least-recently-used Map in this process, bounded by `maxBytes` (UTF-16 size of
 * keys and bodies). Keys are used verbatim (no storage key normalisation, so no hashing) and each entry carries its
 * own expiry. A Map keeps insertion order, so re-inserting an entry on a hit makes the first entry the least
 * recently used one.
 * @example const cache = createMemoryCache(64 * 2 ** 20); await cache.set('get_alpha?days=7@snap', body, 300)
 */
export function createMemoryCache(maxBytes: number): ResponseCache {
  const entries = new Map<string, Entry>()
  let bytes = 0
  // One iterator walks the entries oldest first for evictions. A new one would step over every slot deleted at the
  // front of the Map since its last compaction, which costs more the fuller the cache is.
  let oldest = entries.entries()
  const remove = (key: string, entry: Entry) => {
    entries.delete(key)
    bytes -= entry.size
  }
  return {
    async get(key) {
      const entry = entries.get(key)
      if (!entry) return null
      remove(key, entry)
      if (entry.expiresAt <= Date.now()) return null
      entries.set(key, entry)
      bytes += entry.size
      return entry.body
    },
    async set(key, body, ttlSeconds) {
      if (!(ttlSeconds > 0)) return
      const size = 2 * (key.length + body.length)
      if (size > maxBytes) return
      const previous = entries.get(key)
      if (previous) remove(key, previous)
      entries.set(key, { body, expiresAt: Date.now() + ttlSeconds * 1000, size })
      bytes += size
      while (bytes > maxBytes) {
        let next = oldest.next()
        // an exhausted iterator stays done: start a new one at the current oldest entry
        if (next.done) next = (oldest = entries.entries()).next()
        if (next.done) break
        remove(next.value[0], next.value[1])
      }
    },
  }
}
