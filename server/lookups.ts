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
import { log } from '../pipeline/log.ts'
import { JsonWriter } from './internal/json_writer.ts'
import type { Operation } from './operations/define.ts'
import { resolveAccount } from './params/account.ts'
import type { Snapshot } from './snapshot/types.ts'

const FLUSH_INTERVAL_MS = 1000
/** Lines buffered before a write is started early (bounds memory under heavy load). */
const FLUSH_AT_LINES = 50_000

/**
 * Lookups not yet written, in columns made for a whole batch: a request adds no object of its own (a second's worth
 * of lookup objects would outlive young-generation collections) and no column grows (copied) while it fills.
 */
class Lookups {
  count = 0
  readonly atSecond = new Float64Array(FLUSH_AT_LINES)
  readonly operation: string[] = new Array<string>(FLUSH_AT_LINES).fill('')
  readonly platformId: string[] = new Array<string>(FLUSH_AT_LINES).fill('')
}

export class LookupRecorder {
  private pending = new Lookups()
  /** The batch written last, emptied: the next one to fill (columns are made again only when a write lags). */
  private spare: Lookups | null = null
  /** Writes run one after another so lines keep their order. */
  private writing: Promise<void> = Promise.resolve()
  private readonly timer: NodeJS.Timeout

  constructor(readonly dir: string) {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS)
    this.timer.unref()
  }

  record(operation: string, platformId: string, atMs = Date.now()): void {
    const { pending } = this
    const n = pending.count++
    pending.atSecond[n] = Math.floor(atMs / 1000)
    pending.operation[n] = operation
    pending.platformId[n] = platformId
    if (pending.count === FLUSH_AT_LINES) void this.flush()
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
    if (this.pending.count === 0) return this.writing
    const batch = this.pending
    this.pending = this.spare ?? new Lookups()
    this.spare = null
    this.writing = this.writing.then(async () => {
      await this.append(batch)
      // (its strings are let go: they may belong to a snapshot that has been replaced)
      batch.operation.fill('', 0, batch.count)
      batch.platformId.fill('', 0, batch.count)
      batch.count = 0
      this.spare = batch
    })
    return this.writing
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }

  private async append(batch: Lookups): Promise<void> {
    // each file's lines written as bytes (a JsonWriter, held until its write is done). Lines of one batch share few
    // seconds and operations: each second (with its file) and each operation is formatted once per run of lines
    // that share it; `at` and the decimal ids need no escaping
    const files = new Map<string, JsonWriter>()
    let second = NaN
    let head = EMPTY
    let out: JsonWriter | undefined
    let operation = ''
    let operationBytes = EMPTY
    for (let i = 0; i < batch.count; i++) {
      if (batch.atSecond[i] !== second) {
        second = batch.atSecond[i]
        const at = new Date(second * 1000).toISOString().replace('.000Z', 'Z')
        head = Buffer.from(`{"at":"${at}","operation":`)
        const file = `${at.slice(0, 10)}.ndjson`
        out = files.get(file)
        if (!out) files.set(file, (out = new JsonWriter(LINE_BYTES * (batch.count - i))))
      }
      if (batch.operation[i] !== operation) {
        operation = batch.operation[i]
        operationBytes = Buffer.from(`${JSON.stringify(operation)},"platform_id":"`)
      }
      out!.bytes(head)
      out!.bytes(operationBytes)
      out!.text(batch.platformId[i])
      out!.text('"}\n')
    }
    try {
      await fs.promises.mkdir(this.dir, { recursive: true })
      for (const [file, lines] of files) await fs.promises.appendFile(path.join(this.dir, file), lines.toBuffer())
    } catch (error) {
      log.warn('lookups.write_failed', { dir: this.dir, lines: batch.count, error: String(error) })
    }
  }
}

const EMPTY = Buffer.alloc(0)
/** A line's usual size: 61 bytes of fixed text, an operation name and an id (the writer grows past it). */
const LINE_BYTES = 100
