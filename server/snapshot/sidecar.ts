/**
 * Serving sidecars: big, rarely read columns of a snapshot (daily series, tweet texts) kept on disk in a compact
 * binary file instead of the heap; only what finds a row stays in memory. A request reads the row range it needs
 * once per column (`DiskColumn.read`), then indexes that array. A small file can be held in memory instead
 * (`openSidecar`'s `residentBytes`); the blocks of the others that were read recently are kept in a bounded pool
 * (`BlockCache`, block_cache.ts): either way most reads copy from memory instead of asking the kernel.
 *
 * Where: `<snapshots dir>/.serving/<snapshot folder>/<name>.bin`, derived from the snapshot, never inside the
 * published folder (os temp dir when that one is not writable). Written once per snapshot and reused by every later
 * load of it; folders of snapshots that no longer exist are removed when a snapshot loads.
 *
 * Format (little-endian): a 4096-byte header (`MAGIC`, then JSON: format version, snapshot id and build time, each
 * column's type, rows and byte position), then the columns back to back, each 8-byte aligned. A file is written
 * under a temporary name (`<name>.bin.<pid>-<n>.tmp`), served from there at once, and renamed to its final name only
 * after its bytes are on disk (fsync, in the background): a file with the final name is always complete.
 *
 * @example const writer = new SidecarWriter(file, snapshot, [{ name: 'day', type: 'u16', rows }]); writer.write('day', days, 0); openSidecar(writer.finish()).column('day', 'u16').read(0, 10)
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { log } from '../../pipeline/log.ts'
import { readFully, type BlockCache, type BlockMap } from './block_cache.ts'
import { transientArray, type TypedArrayType } from '../internal/transient.ts'
import { isRunning } from '../access/stores/process.ts'

const FORMAT = 1
const MAGIC = 'ASSIDECAR\n'
const HEADER_BYTES = 4096

const ARRAYS = {
  u8: Uint8Array,
  i16: Int16Array,
  u16: Uint16Array,
  i32: Int32Array,
  u32: Uint32Array,
  f64: Float64Array,
  u64: BigUint64Array,
}
export type ColumnType = keyof typeof ARRAYS
export type ArrayOf<T extends ColumnType> = InstanceType<(typeof ARRAYS)[T]>
export type AnyArray = Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float64Array | BigUint64Array
/** Column types read as numbers (not bigints). */
export type NumericType = Exclude<ColumnType, 'u64'>

/** An array of `length` values of a column type in request memory (see `transientArray`). */
function requestArray<T extends ColumnType>(type: T, length: number): ArrayOf<T> {
  return transientArray(ARRAYS[type] as unknown as TypedArrayType<ArrayOf<T>>, length)
}

/** A zeroed array of `rows` values of a column type. */
export function newColumn<T extends ColumnType>(type: T, rows: number): ArrayOf<T> {
  return new ARRAYS[type](rows) as ArrayOf<T>
}

/** Which snapshot a sidecar belongs to (a file of another build of the same folder name is never reused). */
export interface SidecarOwner {
  snapshotId: string
  builtAt: string
}

interface ColumnHeader {
  type: ColumnType
  rows: number
  position: number
}

interface Header extends SidecarOwner {
  format: number
  columns: Record<string, ColumnHeader>
}

/** A written sidecar (plain data: it crosses from the loader worker to the main thread). */
export interface SidecarRef {
  /** Where the bytes are now: the final path, or the temporary one until the background commit renames it. */
  path: string
  finalPath: string
  header: Header
}

/** The sidecar folder of a snapshot folder; removes the folders of snapshots that no longer exist. */
export function servingDir(snapshotDir: string): string {
  const root = path.join(path.dirname(snapshotDir), '.serving')
  const dir = path.join(root, path.basename(snapshotDir))
  try {
    fs.mkdirSync(dir, { recursive: true })
    fs.accessSync(dir, fs.constants.W_OK)
  } catch (error) {
    const fallback = path.join(os.tmpdir(), 'account-scoring-serving', path.basename(snapshotDir))
    log.warn('snapshot.sidecar_dir_fallback', { dir, fallback, error: String(error) })
    fs.mkdirSync(fallback, { recursive: true })
    return fallback
  }
  for (const name of fs.readdirSync(root)) {
    if (name !== path.basename(snapshotDir) && !fs.existsSync(path.join(path.dirname(snapshotDir), name))) {
      fs.rmSync(path.join(root, name), { recursive: true, force: true })
    }
  }
  removeAbandoned(dir)
  return dir
}

/** Temporary files of processes that died before committing them. */
function removeAbandoned(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    const pid = /\.(\d+)-\d+\.tmp$/.exec(name)?.[1]
    if (pid && Number(pid) !== process.pid && !isRunning(Number(pid))) fs.rmSync(path.join(dir, name), { force: true })
  }
}

/**
 * The committed sidecar at `file` when it is complete, belongs to `owner` and holds every column of `columns`, else
 * null (a file written by an older loader that lacks a column is written again).
 */
export function findSidecar(file: string, owner: SidecarOwner, columns: readonly string[]): SidecarRef | null {
  let fd: number
  try {
    fd = fs.openSync(file, 'r')
  } catch {
    return null
  }
  try {
    const bytes = Buffer.alloc(HEADER_BYTES)
    fs.readSync(fd, bytes, 0, HEADER_BYTES, 0)
    const text = bytes.toString('utf8')
    if (!text.startsWith(MAGIC)) return null
    const header = JSON.parse(text.slice(MAGIC.length, text.indexOf('\0'))) as Header
    if (header.format !== FORMAT || header.snapshotId !== owner.snapshotId || header.builtAt !== owner.builtAt) return null
    if (!columns.every((name) => Object.hasOwn(header.columns, name))) return null
    if (fs.fstatSync(fd).size !== fileSize(header.columns)) return null
    return { path: file, finalPath: file, header }
  } catch {
    return null
  } finally {
    fs.closeSync(fd)
  }
}

const align8 = (n: number) => Math.ceil(n / 8) * 8

function fileSize(columns: Record<string, ColumnHeader>): number {
  let end = HEADER_BYTES
  for (const c of Object.values(columns)) end = Math.max(end, c.position + c.rows * ARRAYS[c.type].BYTES_PER_ELEMENT)
  return end
}

let written = 0
/** Rows batched per column before a write. */
const STAGE_ROWS = 1 << 16

interface Stage {
  values: AnyArray
  row: number
  count: number
}

/**
 * Writes one sidecar: columns of known row counts at their positions, in any order; the last column may have an
 * unknown count (`rows: null`) and is appended to in order.
 */
export class SidecarWriter {
  readonly #fd: number
  readonly #tmpPath: string
  readonly #columns: Record<string, ColumnHeader> = {}
  readonly #stages = new Map<string, Stage>()
  #tail: string | null = null
  #tailRows = 0

  constructor(
    readonly finalPath: string,
    readonly owner: SidecarOwner,
    columns: { name: string; type: ColumnType; rows: number | null }[],
  ) {
    let position = HEADER_BYTES
    columns.forEach(({ name, type, rows }, i) => {
      if (rows === null && i !== columns.length - 1) throw new Error(`sidecar column ${name}: only the last may grow`)
      if (rows === null) this.#tail = name
      this.#columns[name] = { type, rows: rows ?? 0, position }
      position = align8(position + (rows ?? 0) * ARRAYS[type].BYTES_PER_ELEMENT)
    })
    // unique per writer: a second load of the same snapshot in this process never truncates a file being served
    this.#tmpPath = `${finalPath}.${process.pid}-${++written}.tmp`
    this.#fd = fs.openSync(this.#tmpPath, 'w')
  }

  /** Write `values` as rows `row..` of column `name` (converted to the column's type); consecutive writes are batched. */
  write(name: string, values: ArrayLike<number> | ArrayLike<bigint>, row: number): void {
    let stage = this.#stages.get(name)
    if (stage && (row !== stage.row + stage.count || stage.count + values.length > stage.values.length)) {
      this.#flush(name, stage)
      stage = undefined
    }
    if (!stage) {
      const type = this.#columns[name].type
      if (values.length >= STAGE_ROWS) return this.#writeAt(name, toType(type, values), row)
      this.#stages.set(name, (stage = { values: new ARRAYS[type](STAGE_ROWS), row, count: 0 }))
    }
    ;(stage.values as Int32Array).set(values as ArrayLike<number>, stage.count)
    stage.count += values.length
  }

  #flush(name: string, stage: Stage): void {
    this.#writeAt(name, stage.values.subarray(0, stage.count), stage.row)
    this.#stages.delete(name)
  }

  #writeAt(name: string, typed: AnyArray, row: number): void {
    const position = this.#columns[name].position + row * typed.BYTES_PER_ELEMENT
    fs.writeSync(this.#fd, typed, 0, typed.byteLength, position)
  }

  /** Append raw bytes to the last column (an `u8` column of unknown length). */
  append(bytes: Uint8Array): void {
    const column = this.#columns[this.#tail!]
    fs.writeSync(this.#fd, bytes, 0, bytes.byteLength, column.position + this.#tailRows)
    this.#tailRows += bytes.byteLength
  }

  /** Write the header and close; the main thread then commits the file (`commitSidecar`). */
  finish(): SidecarRef {
    for (const [name, stage] of this.#stages) this.#flush(name, stage)
    if (this.#tail) this.#columns[this.#tail].rows = this.#tailRows
    const header: Header = { format: FORMAT, ...this.owner, columns: this.#columns }
    const bytes = Buffer.alloc(HEADER_BYTES)
    const text = MAGIC + JSON.stringify(header)
    if (Buffer.byteLength(text) >= HEADER_BYTES) throw new Error('sidecar header too long')
    bytes.write(text)
    fs.writeSync(this.#fd, bytes, 0, HEADER_BYTES, 0)
    // the size check of findSidecar also covers a tail column that ends before the last written byte
    fs.ftruncateSync(this.#fd, fileSize(this.#columns))
    fs.closeSync(this.#fd)
    return { path: this.#tmpPath, finalPath: this.finalPath, header }
  }

  /** Give up (on a failed load): remove the temporary file. */
  abandon(): void {
    try {
      fs.closeSync(this.#fd)
    } catch {
      // already closed by finish
    }
    fs.rmSync(this.#tmpPath, { force: true })
  }
}

function toType(type: ColumnType, values: ArrayLike<number> | ArrayLike<bigint>): AnyArray {
  const Array_ = ARRAYS[type]
  if (values instanceof Array_) return values
  const typed = new Array_(values.length)
  ;(typed as Int32Array).set(values as ArrayLike<number>)
  return typed
}

/** Rows apart that `DiskColumn.readRows` still reads in one go (a skipped row costs less than another read). */
const GAP_ROWS = 64

/**
 * A numeric column kept on disk. `read(start, end)` copies rows `start..end-1` into a typed array in request memory
 * with one read (a few µs from the page cache): a request reads the row range it needs once, then indexes the array.
 *
 * @example const days = history.day.read(first, last); days[r - first]
 */
export class DiskColumn<T extends NumericType> {
  readonly rows: number
  readonly #sidecar: Sidecar
  readonly #name: string
  readonly #type: T

  constructor(sidecar: Sidecar, name: string, type: T) {
    this.rows = sidecar.rows(name)
    this.#sidecar = sidecar
    this.#name = name
    this.#type = type
  }

  /** Rows `start..end-1` (a RangeError outside `0..rows`), in request memory (`transientArray`): copy what you keep. */
  read(start: number, end: number): ArrayOf<T> {
    checkRange(start, end, this.rows, this.#name)
    return this.#fill(start, requestArray(this.#type, end - start))
  }

  /**
   * Rows `start..end-1` copied into the start of `scratch` (an array of this column's type, at least that long):
   * long ranges read per request without a new array each time.
   */
  readInto(start: number, end: number, scratch: ArrayOf<T>): ArrayOf<T> {
    checkRange(start, end, this.rows, this.#name)
    return this.#fill(start, scratch.subarray(0, end - start) as ArrayOf<T>)
  }

  /** `values` filled with the rows from `start` on. */
  #fill(start: number, values: ArrayOf<T>): ArrayOf<T> {
    this.#sidecar.readBytes(this.#name, start * values.BYTES_PER_ELEMENT, new Uint8Array(values.buffer, values.byteOffset, values.byteLength))
    return values
  }

  /**
   * The values of `rows` (any order), in that order; rows near each other are read together: all in one read when
   * they span fewer than `GAP_ROWS` rows each (e.g. a page of consecutive rows, forwards or backwards). In request
   * memory, like `read`.
   */
  readRows(rows: readonly number[]): ArrayOf<T> {
    const picked = requestArray(this.#type, rows.length)
    if (rows.length === 0) return picked
    let low = rows[0]
    let high = rows[0]
    for (const row of rows) {
      if (row < low) low = row
      if (row > high) high = row
    }
    if (high - low < GAP_ROWS * rows.length) {
      const span = this.read(low, high + 1)
      for (let i = 0; i < rows.length; i++) picked[i] = span[rows[i] - low]
      return picked
    }
    const order = rows.map((_, i) => i).sort((a, b) => rows[a] - rows[b])
    for (let i = 0; i < order.length; ) {
      let j = i + 1
      while (j < order.length && rows[order[j]] - rows[order[j - 1]] <= GAP_ROWS) j++
      const start = rows[order[i]]
      const block = this.read(start, rows[order[j - 1]] + 1)
      for (; i < j; i++) picked[order[i]] = block[rows[order[i]] - start]
    }
    return picked
  }
}

/** UTF-8 texts back to back on disk (a `u8` column): `read(start, end)` decodes bytes `start..end-1` (one read). */
export class DiskText {
  readonly bytes: number
  readonly #sidecar: Sidecar
  readonly #name: string
  #scratch = Buffer.alloc(4096)

  constructor(sidecar: Sidecar, name: string) {
    this.bytes = sidecar.rows(name)
    this.#sidecar = sidecar
    this.#name = name
  }

  read(start: number, end: number): string {
    checkRange(start, end, this.bytes, this.#name)
    const length = end - start
    if (length > this.#scratch.length) this.#scratch = Buffer.alloc(length)
    this.#sidecar.readBytes(this.#name, start, this.#scratch.subarray(0, length))
    return this.#scratch.toString('utf8', 0, length)
  }
}

/**
 * A text per row kept on disk (`DiskText`), with its offsets (and null flags) in memory: `at(row)` reads one range.
 * For columns read rarely per row (account descriptions, when a row's JSON is first made): 5 bytes per row in
 * memory instead of a JS string.
 *
 * @example accounts.description.at(idx) // 'Shipping restaking on Solana.'
 */
export class TextColumn {
  constructor(
    private readonly offsets: Uint32Array,
    private readonly bytes: DiskText,
    private readonly isNull: Uint8Array | null,
  ) {}

  get length(): number {
    return this.offsets.length - 1
  }

  at(row: number): string | null {
    if (this.isNull?.[row]) return null
    return this.bytes.read(this.offsets[row], this.offsets[row + 1])
  }
}

function checkRange(start: number, end: number, rows: number, name: string): void {
  if (!(Number.isInteger(start) && Number.isInteger(end) && 0 <= start && start <= end && end <= rows)) {
    throw new RangeError(`sidecar column ${name}: rows ${start}..${end} outside 0..${rows}`)
  }
}

/**
 * An open sidecar, read from its file (through `cache` when given) or, when resident, from a copy of the whole
 * file in memory (see `openSidecar`); a file descriptor closes when the sidecar is garbage-collected (its snapshot
 * retired).
 */
export class Sidecar {
  readonly #fd: number | null
  readonly #columns: Record<string, ColumnHeader>
  /** The whole file, when it is held in memory. */
  readonly #resident: Buffer | null
  readonly #cache: BlockCache | null
  /** This file's blocks in `cache`. */
  readonly #blocks: BlockMap = new Map()
  readonly #size: number

  constructor(source: number | Buffer, header: Header, cache: BlockCache | null = null) {
    this.#fd = typeof source === 'number' ? source : null
    this.#resident = typeof source === 'number' ? null : source
    this.#columns = header.columns
    this.#cache = cache
    this.#size = fileSize(header.columns)
  }

  /** Bytes held in memory (the file's size when resident, else 0). */
  get residentBytes(): number {
    return this.#resident?.length ?? 0
  }

  has(name: string): boolean {
    return Object.hasOwn(this.#columns, name)
  }

  rows(name: string): number {
    return this.#columns[name].rows
  }

  /** Rows `first..first+count-1` of a column, copied into a new typed array. */
  read<T extends ColumnType>(name: string, type: T, first = 0, count = this.#columns[name].rows - first): ArrayOf<T> {
    const column = this.#columns[name]
    if (column.type !== type) throw new Error(`sidecar column ${name} is ${column.type}, not ${type}`)
    const values = new ARRAYS[type](count) as ArrayOf<T>
    this.readBytes(name, first * values.BYTES_PER_ELEMENT, new Uint8Array(values.buffer))
    return values
  }

  /** Fill `into` with a column's bytes from byte `start` on. */
  readBytes(name: string, start: number, into: Uint8Array): void {
    const position = this.#columns[name].position + start
    if (position + into.byteLength > this.#size) throw new Error(`sidecar column ${name}: unexpected end of file`)
    if (this.#resident) this.#resident.copy(into, 0, position, position + into.byteLength)
    else if (this.#cache) this.#cache.read(this.#fd!, this.#blocks, position, into)
    else readFully(this.#fd!, into, 0, into.byteLength, position)
  }

  /** A numeric column left on disk, read by row ranges (see `DiskColumn`). */
  column<T extends NumericType>(name: string, type: T): DiskColumn<T> {
    if (this.#columns[name].type !== type) throw new Error(`sidecar column ${name} is ${this.#columns[name].type}, not ${type}`)
    return new DiskColumn(this, name, type)
  }

  /** A `u8` column of UTF-8 texts left on disk, decoded by byte ranges (see `DiskText`). */
  utf8(name: string): DiskText {
    return new DiskText(this, name)
  }
}

const closeOnCollect = new FinalizationRegistry<number>((fd) => fs.close(fd, () => undefined))

/**
 * Open a written sidecar (committed or not) for reading. A file of at most `residentBytes` is read whole into
 * memory now and served from there: a request then copies its rows from memory instead of asking the kernel (each
 * read from the page cache is a system call: demo `get_followers`, ~1.7 reads a request, 36.7 → 33.9 µs of CPU
 * per request held in memory). A bigger file is read per request, through `cache` when given. Columns written to
 * disk by the writer are complete at `finish()`; the `pending` ones written at commit are never read through this
 * sidecar.
 */
export function openSidecar(ref: SidecarRef, residentBytes = 0, cache: BlockCache | null = null): Sidecar {
  const fd = fs.openSync(ref.path, 'r')
  if (fs.fstatSync(fd).size <= residentBytes) {
    try {
      return new Sidecar(fs.readFileSync(fd), ref.header)
    } finally {
      fs.closeSync(fd)
    }
  }
  const sidecar = new Sidecar(fd, ref.header, cache)
  closeOnCollect.register(sidecar, fd)
  return sidecar
}

/** Columns `names` of a written sidecar, read into memory (typed as written). */
export function readColumns(ref: SidecarRef, names: string[]): Record<string, AnyArray> {
  const sidecar = openSidecar(ref)
  return Object.fromEntries(names.map((name) => [name, sidecar.read(name, ref.header.columns[name].type)]))
}

/**
 * Commit a sidecar written by this load, in the background: write the `pending` columns (kept in memory, so the
 * load did not wait for them), fsync, then rename to the final name. Until then the file serves from its temporary
 * name; a file that fails to commit is logged and removed (the next load writes it again), and the promise rejects.
 */
export function commitSidecar(ref: SidecarRef, pending: Record<string, AnyArray> = {}): Promise<void> {
  if (ref.path === ref.finalPath) return Promise.resolve()
  return (async () => {
    const file = await fs.promises.open(ref.path, 'r+')
    try {
      for (const [name, values] of Object.entries(pending)) {
        const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength)
        for (let done = 0; done < bytes.byteLength; ) {
          done += (await file.write(bytes, done, bytes.byteLength - done, ref.header.columns[name].position + done)).bytesWritten
        }
      }
      await file.sync()
    } finally {
      await file.close()
    }
    await fs.promises.rename(ref.path, ref.finalPath)
  })().catch((error) => {
    log.warn('snapshot.sidecar_commit_failed', { file: ref.finalPath, error: String(error) })
    fs.rmSync(ref.path, { force: true })
    throw error
  })
}
