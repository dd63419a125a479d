/**
 * The snapshot being served, following `<snapshotsDir>/current`. A new target of the pointer is loaded beside it
 * (its files read off the event loop: the one serving answers meanwhile) and swapped in atomically; a request keeps
 * the snapshot it started with (it reads `current` once). A snapshot that fails to load is logged and the previous
 * one keeps serving.
 *
 * @example const store = await CurrentSnapshot.open('./snapshots'); store.watch(5)
 */
import fs from 'node:fs'
import path from 'node:path'
import { log } from '../../log/logger.ts'
import { loadSnapshot, type Snapshot } from './load.ts'

/** What the app needs: the snapshot to answer the next request with. */
export interface SnapshotSource {
  readonly current: Snapshot
}

export class CurrentSnapshot implements SnapshotSource {
  #current: Snapshot
  #loading: Promise<boolean> | null = null
  /** A target that failed to load is not retried until the pointer moves again. */
  #failed: string | null = null

  private constructor(
    readonly snapshotsDir: string,
    first: Snapshot,
  ) {
    this.#current = first
  }

  /** Load `<snapshotsDir>/current` (fails when there is none or it cannot be loaded). */
  static async open(snapshotsDir: string): Promise<CurrentSnapshot> {
    const current = path.join(snapshotsDir, 'current')
    if (!fs.existsSync(current)) throw new Error(`no snapshot at ${current}: run npm run build first`)
    return new CurrentSnapshot(snapshotsDir, await loadSnapshot(current))
  }

  get current(): Snapshot {
    return this.#current
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
    if (target === this.#failed) return false
    // the pointer moved since a failure: its target is tried again when it comes back (repaired, or copied again)
    this.#failed = null
    if (target === this.#current.dir) return false
    try {
      const next = await loadSnapshot(target)
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
