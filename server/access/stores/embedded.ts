import path from 'node:path'
import { createStorage, type Storage } from 'unstorage'
import { log } from '../../../log/logger.ts'
import { QUOTA_WINDOW_MS } from '../plans.ts'
import lruCacheDriver from 'unstorage/drivers/lru-cache'
import { createResponseCache } from '../response-cache.ts'
import { atomicFsDriver } from './atomic-fs-driver.ts'
import { withFileLock } from './locks.ts'
import type { Backend, CounterWindow, CountRequest, CountResult, Counters } from './interface.ts'

/** How often counted calls reach the disk: a crash loses at most this much counting. */
const COUNTERS_FLUSH_MS = 1000
const COUNTERS_ITEM = 'counters.json'
const NEXT_USER_ID_ITEM = 'access:next-user-id'

/**
 * The default backend, with no outside service: records in files under `dataDir` (written atomically), the
 * response cache in a size-bounded LRU of this process (unstorage's `lru-cache` driver), and counters owned by this
 * process (one server process per data directory; run several instances on Redis).
 */
export async function openEmbeddedBackend(dataDir: string, cacheMaxBytes: number): Promise<Backend> {
  const storage = createStorage({ driver: atomicFsDriver({ base: dataDir }) })
  const counters = await EmbeddedCounters.open(storage)
  const exclusive = <T>(name: string, change: () => Promise<T>) => withFileLock(path.join(dataDir, 'locks', `${name}.lock`), change)
  let allocating: Promise<unknown> = Promise.resolve()
  return {
    storage,
    counters,
    // bounded by the bytes of its keys and bodies, not by a count of entries
    cache: createResponseCache(createStorage({ driver: lruCacheDriver({ max: undefined, maxSize: cacheMaxBytes }) }), 'bytes'),
    /**
     * Read, increment and write one at a time (in this process, then under the lock file), so concurrent creations
     * never share an id, in this process or another (the CLI beside a server).
     */
    nextUserId() {
      const next = allocating.then(() =>
        exclusive('next-user-id', async () => {
          const id = Number((await storage.getItem(NEXT_USER_ID_ITEM)) ?? 0) + 1
          await storage.setItem(NEXT_USER_ID_ITEM, String(id))
          return id
        }),
      )
      allocating = next.catch(() => undefined)
      return next
    },
    exclusive,
    async close() {
      await counters.close().finally(() => storage.dispose())
    },
  }
}

/**
 * Fixed-window counters in a Map: a check-and-increment has no `await` inside, so it is atomic in this process.
 * Changes are written to `counters.json` at most once per `COUNTERS_FLUSH_MS` and on close.
 */
class EmbeddedCounters implements Counters {
  private dirty = false
  private flushing: Promise<void> = Promise.resolve()
  private readonly timer: NodeJS.Timeout

  private constructor(
    private readonly storage: Storage,
    private readonly windows: Map<string, CounterWindow>,
  ) {
    this.timer = setInterval(() => this.dirty && this.flush(), COUNTERS_FLUSH_MS).unref()
  }

  static async open(storage: Storage): Promise<EmbeddedCounters> {
    const saved = (await storage.getItem<Record<string, CounterWindow>>(COUNTERS_ITEM)) ?? {}
    // (unstorage's fs driver answers a failed read other than "not found" with the error as the value: starting from
    // no counts would then overwrite the saved ones)
    if (saved instanceof Error) throw new Error(`${COUNTERS_ITEM} in the data directory could not be read: ${saved.message}`)
    if (typeof saved !== 'object' || Array.isArray(saved)) throw new Error(`${COUNTERS_ITEM} in the data directory is not a JSON object`)
    // a count that is not a whole number, or a window that never ends, would never refuse a call
    const bad = Object.entries(saved).find(([, w]) => !(Number.isSafeInteger(w?.count) && w.count >= 0 && w.expiresAt <= Date.now() + QUOTA_WINDOW_MS))
    if (bad) throw new Error(`${COUNTERS_ITEM} in the data directory holds an invalid window ${bad[0]}: ${JSON.stringify(bad[1])}`)
    return new EmbeddedCounters(storage, new Map(Object.entries(saved)))
  }

  async count({ userId, bucket, quotaTotal, rateTotal, rateWindowMs }: CountRequest): Promise<CountResult> {
    const now = Date.now()
    const quotaKey = `quota:${userId}`
    const rateKey = `rate:${userId}:${bucket}:${rateWindowMs}`
    const quota = this.windowAt(quotaKey, QUOTA_WINDOW_MS, now)
    const rate = this.windowAt(rateKey, rateWindowMs, now)
    const outcome = quota.count >= quotaTotal ? 'quota_exceeded' : rate.count >= rateTotal ? 'rate_limited' : 'admitted'
    if (outcome === 'admitted') {
      quota.count++
      rate.count++
      // a window opens with the first call it counts (a refused call opens none)
      this.windows.set(quotaKey, quota)
      this.windows.set(rateKey, rate)
      this.dirty = true
    }
    return { outcome, quotaUsed: quota.count, quotaResetAt: quota.expiresAt, rateUsed: rate.count, rateResetAt: rate.expiresAt, now }
  }

  async quota(userId: number): Promise<{ used: number; resetAt: number } | null> {
    const window = this.windows.get(`quota:${userId}`)
    return window && window.expiresAt > Date.now() ? { used: window.count, resetAt: window.expiresAt } : null
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    if (this.dirty) this.flush()
    await this.flushing
    if (this.dirty) throw new Error(`${COUNTERS_ITEM} in the data directory could not be written: the counts since its last write are lost`)
  }

  /** The window under `key` at `now`, counted in place: the stored one while it runs, else a new empty one. */
  private windowAt(key: string, windowMs: number, now: number): CounterWindow {
    const window = this.windows.get(key)
    return window !== undefined && window.expiresAt > now ? window : { count: 0, expiresAt: now + windowMs }
  }

  /** Queue one write of the current state; writes never overlap, and a failed one is retried by the next tick. */
  private flush(): void {
    this.dirty = false
    const now = Date.now()
    const state: Record<string, CounterWindow> = {}
    for (const [key, window] of this.windows) {
      if (window.expiresAt > now) state[key] = window
      else this.windows.delete(key)
    }
    const flushing: Promise<void> = this.flushing
      .then(() => this.storage.setItem(COUNTERS_ITEM, state))
      .catch((error: Error) => {
        // a write queued after this one holds all its counts: only the last write's failure leaves counts unsaved
        if (this.flushing === flushing) this.dirty = true
        log.error('access.counters.flush_failed', { error: error.message })
      })
    this.flushing = flushing
  }
}
