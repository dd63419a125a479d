/**
 * The lookup recorder: one line per resolved account lookup, appended to `<dir>/<YYYY-MM-DD>.ndjson` (UTC date of
 * the lookup) as `{"at","operation","platform_id"}`; the nightly build aggregates the folder into
 * top_researched.parquet (docs/extra-operations.md). Only what the aggregate needs is written: never the key, the
 * user id or the caller's address, and `at` to the second (the build needs only the day).
 *
 * Requests only append to an in-memory batch of typed arrays (second, operation, id: no object per request, so a
 * busy second leaves the garbage collector nothing to copy or walk); a timer appends the batch about once a second
 * (sooner when it fills) with asynchronous writes in order, and `close()` writes what is left. A failed write is
 * logged and its lines are dropped: the signal is a popularity aggregate, not a log that must be complete.
 *
 * @example const lookups = new LookupRecorder('data/lookups'); lookups.record('get_platform_score', '42'); await lookups.close()
 */
import fs from 'node:fs'
import path from 'node:path'
import { log } from '../log/logger.ts'
import type { Operation } from './operations/define.ts'
import { resolveAccount } from './params/account.ts'
import type { Snapshot } from './snapshot/load.ts'

const FLUSH_INTERVAL_MS = 1000
/** Lookups a batch holds; a full batch is written at once (bounds memory under heavy load). */
const BATCH_LOOKUPS = 50_000

/** Lookups in arrival order, one typed-array element each. */
class Batch {
  length = 0
  readonly seconds = new Float64Array(BATCH_LOOKUPS)
  /** Index into the recorder's operation names. */
  readonly operations = new Uint16Array(BATCH_LOOKUPS)
  readonly ids = new BigUint64Array(BATCH_LOOKUPS)
}

export class LookupRecorder {
  private pending = new Batch()
  private readonly operationNames: string[] = []
  /** Writes run one after another so lines keep their order. */
  private writing: Promise<void> = Promise.resolve()
  private readonly timer: NodeJS.Timeout

  constructor(readonly dir: string) {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS)
    this.timer.unref()
  }

  record(operation: string, platformId: bigint | string, atMs = Date.now()): void {
    let op = this.operationNames.indexOf(operation)
    if (op < 0) op = this.operationNames.push(operation) - 1
    const batch = this.pending
    batch.seconds[batch.length] = Math.floor(atMs / 1000)
    batch.operations[batch.length] = op
    batch.ids[batch.length] = BigInt(platformId)
    if (++batch.length === BATCH_LOOKUPS) void this.flush()
  }

  /**
   * What the app calls after each successful request of `operation`: records the account it resolved. Null for an
   * operation that identifies no account (`platform_id`/`username`). After a success the account rule's two modes
   * agree (a sent id that resolves wins, else the username), so the `fallback` mode stands for both.
   */
  forOperation(operation: Operation): ((snapshot: Snapshot, query: URLSearchParams) => void) | null {
    if (!operation.parameters.some((p) => p.name === 'platform_id')) return null
    return (snapshot, query) =>
      this.record(operation.name, snapshot.accounts.numericId[resolveAccount(snapshot, query, 'fallback')])
  }

  /** Append everything recorded so far; resolves when it is on disk. */
  flush(): Promise<void> {
    if (this.pending.length === 0) return this.writing
    const batch = this.pending
    this.pending = new Batch()
    this.writing = this.writing.then(() => this.append(batch))
    return this.writing
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }

  /** One file per UTC date of the lookups. */
  private async append(batch: Batch): Promise<void> {
    const files = new Map<string, string[]>()
    for (let i = 0; i < batch.length; i++) {
      const at = new Date(batch.seconds[i] * 1000).toISOString().replace('.000Z', 'Z')
      const file = `${at.slice(0, 10)}.ndjson`
      if (!files.has(file)) files.set(file, [])
      const line = { at, operation: this.operationNames[batch.operations[i]], platform_id: batch.ids[i].toString() }
      files.get(file)!.push(`${JSON.stringify(line)}\n`)
    }
    try {
      await fs.promises.mkdir(this.dir, { recursive: true })
      for (const [file, lines] of files) await fs.promises.appendFile(path.join(this.dir, file), lines.join(''))
    } catch (error) {
      log.warn('lookups.write_failed', { dir: this.dir, lines: batch.length, error: String(error) })
    }
  }
}
