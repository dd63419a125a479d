/**
 * The lookup recorder: one line per resolved account lookup, appended to `<dir>/<YYYY-MM-DD>.ndjson` (UTC date of
 * the lookup) as `{"at","operation","platform_id"}`; the nightly build aggregates the folder into
 * top_researched.parquet (docs/extra-operations.md). Only what the aggregate needs is written: never the key, the
 * user id or the caller's address, and `at` to the second (the build needs only the day).
 *
 * Requests only push to an in-memory buffer; a timer appends the buffer about once a second (sooner when it fills)
 * with asynchronous writes in order, and `close()` writes what is left. A failed write is logged and its lines are
 * dropped: the signal is a popularity aggregate, not a log that must be complete.
 *
 * @example const lookups = new LookupRecorder('data/lookups'); lookups.record('get_platform_score', '42'); await lookups.close()
 */
import fs from 'node:fs'
import path from 'node:path'
import { log } from '../log/logger.ts'
import type { Operation } from './operations/define.ts'
import { resolveAccount } from './params/account.ts'
import type { Snapshot } from './snapshot/types.ts'

const FLUSH_INTERVAL_MS = 1000
/** Lines buffered before a write is started early (bounds memory under heavy load). */
const FLUSH_AT_LINES = 50_000

/** One resolved lookup, as its line will say it. */
interface Lookup {
  at: string
  operation: string
  platform_id: string
}

export class LookupRecorder {
  private pending: Lookup[] = []
  /** Writes run one after another so lines keep their order. */
  private writing: Promise<void> = Promise.resolve()
  private readonly timer: NodeJS.Timeout

  constructor(readonly dir: string) {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS)
    this.timer.unref()
  }

  record(operation: string, platformId: string, atMs = Date.now()): void {
    const at = new Date(Math.floor(atMs / 1000) * 1000).toISOString().replace('.000Z', 'Z')
    this.pending.push({ at, operation, platform_id: platformId })
    if (this.pending.length >= FLUSH_AT_LINES) void this.flush()
  }

  /**
   * What the app calls after each successful request of `operation`: records the account it resolved. Null for an
   * operation that identifies no account (`platform_id`/`username`). After a success the account rule's two modes
   * agree (a sent id that resolves wins, else the username), so the `fallback` mode stands for both.
   */
  forOperation(operation: Operation): ((snapshot: Snapshot, query: URLSearchParams) => void) | null {
    if (!operation.parameters.some((p) => p.name === 'platform_id')) return null
    return (snapshot, query) =>
      this.record(operation.name, snapshot.accounts.platformId[resolveAccount(snapshot, query, 'fallback')])
  }

  /** Append everything recorded so far; resolves when it is on disk. */
  flush(): Promise<void> {
    if (this.pending.length === 0) return this.writing
    const batch = this.pending
    this.pending = []
    this.writing = this.writing.then(() => this.append(batch))
    return this.writing
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }

  /** One file per UTC date of the lookups. */
  private async append(batch: Lookup[]): Promise<void> {
    const files = new Map<string, string[]>()
    for (const lookup of batch) {
      const file = `${lookup.at.slice(0, 10)}.ndjson`
      if (!files.has(file)) files.set(file, [])
      files.get(file)!.push(`${JSON.stringify(lookup)}\n`)
    }
    try {
      await fs.promises.mkdir(this.dir, { recursive: true })
      for (const [file, lines] of files) await fs.promises.appendFile(path.join(this.dir, file), lines.join(''))
    } catch (error) {
      log.warn('lookups.write_failed', { dir: this.dir, lines: batch.length, error: String(error) })
    }
  }
}
