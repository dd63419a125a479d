import { defineDriver } from 'unstorage'
import type { ResponseCache } from '../types.ts'

interface Entry {
  body: Buffer
  expiresAt: number
  size: number
}

/**
 * The embedded response cache's storage: an unstorage driver holding a least-recently-used Map in this process,
 * bounded by `maxBytes` (bodies' bytes plus the keys' UTF-16 size), each entry with its own expiry (`ttl` seconds).
 * Bodies are Buffers, outside the JS heap: a full cache costs the garbage collector a small object per entry, not
 * the copying of every body that survives its young generation (a body is stored in its own memory, never as a
 * slice of Node's shared pool, which would keep the whole pool slab alive). A Map
 * keeps insertion order, so re-inserting an entry on a hit makes the first entry the least recently used one.
 * It can be mounted in a `createStorage({ driver })` like any driver; the response cache calls it directly, with the
 * cache key verbatim, so the hot path skips unstorage's key normalisation (and needs no hashing of keys).
 * @example const driver = lruBodyDriver({ maxBytes: 64 * 2 ** 20 }); driver.setItemRaw!('k', Buffer.from(body), { ttl: 300 })
 */
export const lruBodyDriver = defineDriver((options: { maxBytes: number }) => {
  const entries = new Map<string, Entry>()
  let bytes = 0
  // One iterator walks the entries oldest first for evictions. A new one would step over every slot deleted at the
  // front of the Map since its last compaction, which costs more the fuller the cache is.
  let oldest = entries.entries()
  const remove = (key: string, entry: Entry) => {
    entries.delete(key)
    bytes -= entry.size
  }
  const store = (key: string, value: Uint8Array, opts: { ttl?: unknown } | undefined) => {
    const ttlSeconds = Number(opts?.ttl)
    if (!(ttlSeconds > 0)) return
    const size = value.byteLength + 2 * key.length
    if (size > options.maxBytes) return
    const body = ownMemory(value)
    const previous = entries.get(key)
    if (previous) remove(key, previous)
    entries.set(key, { body, expiresAt: Date.now() + ttlSeconds * 1000, size })
    bytes += size
    while (bytes > options.maxBytes) {
      let next = oldest.next()
      // an exhausted iterator stays done: start a new one at the current oldest entry
      if (next.done) next = (oldest = entries.entries()).next()
      if (next.done) break
      remove(next.value[0], next.value[1])
    }
  }
  const live = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return undefined
    remove(key, entry)
    if (entry.expiresAt <= Date.now()) return undefined
    entries.set(key, entry)
    bytes += entry.size
    return entry
  }
  return {
    name: 'lru-body',
    flags: { ttl: true },
    options,
    hasItem: (key) => live(key) !== undefined,
    getItem: (key) => live(key)?.body.toString() ?? null,
    getItemRaw: (key) => live(key)?.body ?? null,
    setItem: (key, value, opts) => store(key, Buffer.from(String(value)), opts),
    setItemRaw: (key, value: Uint8Array, opts) => store(key, value, opts),
    removeItem(key) {
      const entry = entries.get(key)
      if (entry) remove(key, entry)
    },
    getKeys: (base) => [...entries.keys()].filter((key) => key.startsWith(base ?? '')),
    clear() {
      entries.clear()
      bytes = 0
      oldest = entries.entries()
    },
  }
})

const NO_OPTIONS = Object.freeze({})

/** `value` in memory of its own: a copy when it is a slice of a larger allocation (Node's pool for small Buffers). */
function ownMemory(value: Uint8Array): Buffer {
  if (value.byteOffset === 0 && value.buffer.byteLength === value.byteLength) return Buffer.from(value.buffer, 0, value.byteLength)
  const copy = Buffer.allocUnsafeSlow(value.byteLength)
  copy.set(value)
  return copy
}

/**
 * The embedded response cache on the `lruBodyDriver`.
 * @example const cache = createMemoryCache(64 * 2 ** 20); cache.set('get_alpha?days=7@snap', Buffer.from(body), 300)
 */
export function createMemoryCache(maxBytes: number): ResponseCache {
  const driver = lruBodyDriver({ maxBytes })
  return {
    get: (key) => driver.getItemRaw!(key, NO_OPTIONS) as Buffer | null,
    set: (key, body, ttlSeconds) => void driver.setItemRaw!(key, body, { ttl: ttlSeconds }),
  }
}
