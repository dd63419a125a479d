/**
 * The snapshot being served, following `<snapshotsDir>/current`. A new target of the pointer is loaded in the
 * background, warmed (`warm`, optional) and swapped in atomically; a request keeps the snapshot it started with (it
 * reads `current` once). A snapshot that fails to load is logged and the previous one keeps serving. The first
 * snapshot serves as soon as it is loaded and is warmed meanwhile.
 *
 * @example const store = await CurrentSnapshot.open('./snapshots', { warm: (s, wanted) => warmSnapshot(s, { wanted }) }); store.watch(5)
 */
import fs from 'node:fs'
import path from 'node:path'
import { log } from '../../log/logger.ts'
import type { BlockCache } from './block_cache.ts'
import { loadSnapshot, type LoadOptions } from './load.ts'
import type { Snapshot } from './types.ts'

/** What the app needs: the snapshot to answer the next request with. */
export interface SnapshotSource {
  readonly current: Snapshot
  /** The pool of serving-cache blocks the snapshots are read through, if any. */
  readonly blockCache?: BlockCache | null
}

/** Work done on a loaded snapshot before it serves (after, for the first one); `wanted()` turns false once replaced. */
export type WarmSnapshot = (snapshot: Snapshot, wanted: () => boolean) => Promise<unknown>

export class CurrentSnapshot implements SnapshotSource {
  #current: Snapshot
  #loading: Promise<boolean> | null = null
  /** A target that failed to load is not retried until the pointer moves again. */
  #failed: string | null = null
  /** The first snapshot's warm-up, running while it serves. */
  readonly warmed: Promise<void>
  #closed = false

  private constructor(
    readonly snapshotsDir: string,
    first: Snapshot,
    private readonly warmUp: WarmSnapshot | undefined,
    private readonly loadOptions: LoadOptions,
  ) {
    this.#current = first
    this.warmed = this.#warm(first, () => !this.#closed && this.#current === first)
  }

  /**
   * Load `<snapshotsDir>/current` (fails when there is none or it cannot be loaded); it serves while `warm` runs.
   * Every snapshot loads with `options` (see `LoadOptions`).
   */
  static async open(snapshotsDir: string, { warm, ...options }: LoadOptions & { warm?: WarmSnapshot } = {}): Promise<CurrentSnapshot> {
    return new CurrentSnapshot(snapshotsDir, await loadSnapshot(path.join(snapshotsDir, 'current'), options), warm, options)
  }

  get current(): Snapshot {
    return this.#current
  }

  /** The pool of serving-cache blocks every snapshot of this server reads through (null: none). */
  get blockCache(): BlockCache | null {
    return this.loadOptions.blockCache ?? null
  }

  /** Load the pointer's target if it moved; true when a new snapshot is now served. Concurrent calls share one load. */
  refresh(): Promise<boolean> {
    this.#loading ??= this.#reload().finally(() => (this.#loading = null))
    return this.#loading
  }

  async #reload(): Promise<boolean> {
    let target: string
    try {
      target = fs.realpathSync(path.join(this.snapshotsDir, 'current'))
    } catch (error) {
      log.warn('snapshot.pointer_unreadable', { dir: this.snapshotsDir, error: String(error) })
      return false
    }
    if (target === this.#current.dir || target === this.#failed) return false
    try {
      const next = await loadSnapshot(target, this.loadOptions)
      await this.#warm(next, () => !this.#closed)
      const previous = this.#current.id
      this.#current = next
      log.info('snapshot.switched', { from: previous, to: next.id, load_ms: next.loadMs })
      return true
    } catch (error) {
      this.#failed = target
      log.error('snapshot.load_failed', { dir: target, error: String(error), serving: this.#current.id })
      return false
    }
  }

  /** A warm-up that fails is logged: the snapshot serves anyway (what it would have built is built on first use). */
  async #warm(snapshot: Snapshot, wanted: () => boolean): Promise<void> {
    try {
      await this.warmUp?.(snapshot, wanted)
    } catch (error) {
      log.error('snapshot.warm_failed', { snapshot_id: snapshot.id, error: error instanceof Error ? error.stack : String(error) })
    }
  }

  /** Stop the warm-up at its next pause (the server is stopping). */
  async close(): Promise<void> {
    this.#closed = true
    await this.warmed
  }

  /** Poll the pointer every `seconds` and on SIGHUP; returns a function that stops watching. */
  watch(seconds: number): () => void {
    const check = () => void this.refresh()
    const timer = setInterval(check, seconds * 1000)
    timer.unref()
    process.on('SIGHUP', check)
    return () => {
      clearInterval(timer)
      process.off('SIGHUP', check)
    }
  }
}
