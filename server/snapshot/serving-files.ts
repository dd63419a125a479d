/**
 * Reading a snapshot's serving columns (`<snapshot>/serving/`, written by the build: pipeline/serving-columns.ts and
 * docs/snapshot.md): a column is read whole into a typed array, or left on disk and read by row range when a request
 * needs it (positioned reads; the OS page cache keeps what is read often). Nothing here writes.
 *
 * @example const files = openServingFiles(dir); await files.array('accounts.rank', 'i32') // Int32Array
 */
import fs from 'node:fs'
import path from 'node:path'
import { SERVING_ARRAYS as ARRAYS, SERVING_FORMAT, type ColumnType } from '../../pipeline/serving-writer.ts'

export type ArrayOf<T extends ColumnType> = InstanceType<(typeof ARRAYS)[T]>

/** File descriptors of on-disk columns are closed once their column is unreachable (its snapshot replaced). */
const descriptors = new FinalizationRegistry<number>((fd) => fs.close(fd, () => undefined))

/** A column on disk: `read(start, end)` gives rows start..end-1 as a new array of their own. */
export class DiskColumn<T extends ColumnType> {
  readonly #fd: number

  constructor(
    file: string,
    private readonly type: T,
    readonly length: number,
  ) {
    this.#fd = fs.openSync(file, 'r')
    descriptors.register(this, this.#fd)
    // checked at load, as the columns read whole are: a short file would fail every request that reads it
    const bytes = length * ARRAYS[type].BYTES_PER_ELEMENT
    if (fs.fstatSync(this.#fd).size < bytes) throw new Error(`serving column ${file} shorter than its columns.json length (${bytes} bytes)`)
  }

  read(start: number, end: number): ArrayOf<T> {
    if (!(0 <= start && start <= end && end <= this.length)) throw new RangeError(`rows ${start}..${end} outside 0..${this.length}`)
    const array = new ARRAYS[this.type](end - start) as ArrayOf<T>
    // the length was checked at open: a positioned read of a regular file returns every byte of its range
    if (fs.readSync(this.#fd, new Uint8Array(array.buffer), 0, array.byteLength, start * array.BYTES_PER_ELEMENT) < array.byteLength) {
      throw new Error('serving column shorter than its columns.json length')
    }
    return array
  }
}

/** A column read row by row (`at`), its values decoded when a row is rendered. */
export interface Column<T> {
  readonly length: number
  at(row: number): T
}

/**
 * A text column: row i is the UTF-8 bytes offsets[i]..offsets[i+1]-1, decoded when a row is rendered. The bytes are
 * in memory or on disk.
 */
export class Texts implements Column<string | null> {
  constructor(
    private readonly offsets: Float64Array,
    private readonly bytes: Buffer | DiskColumn<'u8'>,
    /** 1 where the value is NULL; null when the column has none. */
    private readonly isNull: Uint8Array | null,
  ) {}

  get length(): number {
    return this.offsets.length - 1
  }

  at(row: number): string | null {
    if (this.isNull?.[row]) return null
    const start = this.offsets[row]
    const end = this.offsets[row + 1]
    if (this.bytes instanceof DiskColumn) return Buffer.from(this.bytes.read(start, end).buffer).toString('utf8')
    return this.bytes.toString('utf8', start, end)
  }

  /**
   * The row holding exactly `key` in a column sorted by its UTF-8 bytes (in memory), by binary search; -1 when absent.
   * @example texts.find(Buffer.from('alice')) // 42
   */
  find(key: Buffer): number {
    if (this.bytes instanceof DiskColumn) throw new Error('find needs the text bytes in memory')
    let low = 0
    let high = this.length
    while (low < high) {
      const mid = (low + high) >>> 1
      if (key.compare(this.bytes, this.offsets[mid], this.offsets[mid + 1]) > 0) low = mid + 1
      else high = mid
    }
    return low < this.length && key.compare(this.bytes, this.offsets[low], this.offsets[low + 1]) === 0 ? low : -1
  }
}

interface ColumnsFile {
  format: number
  columns: Record<string, { type: ColumnType; length: number }>
}

export interface ServingFiles {
  /** The number of values of column `name`. */
  length(name: string): number
  /** Column `name` read whole. */
  array<T extends ColumnType>(name: string, type: T): Promise<ArrayOf<T>>
  /** Column `name` left on disk. */
  disk<T extends ColumnType>(name: string, type: T): DiskColumn<T>
  /** Text column `name`, its bytes in memory or left on disk. */
  texts(name: string, where: 'memory' | 'disk'): Promise<Texts>
  /** The small tables (`reference.json`; none in a history part). */
  reference: Record<string, Record<string, unknown>[]>
}

/** The serving folder `dir`: a snapshot's `serving/` (with its `reference.json`), or a history part's folder in it. */
export function openServingFiles(dir: string, kind: 'snapshot' | 'part' = 'snapshot'): ServingFiles {
  const { format, columns } = JSON.parse(fs.readFileSync(path.join(dir, 'columns.json'), 'utf8')) as ColumnsFile
  if (format !== SERVING_FORMAT) {
    throw new Error(`${dir}: serving columns of format ${format}, this server reads format ${SERVING_FORMAT}: build a snapshot with this version (npm run build)`)
  }
  const column = (name: string, type: ColumnType) => {
    const found = columns[name]
    if (!found || found.type !== type) throw new Error(`${dir}: no ${type} column ${name}`)
    return { file: path.join(dir, `${name}.bin`), length: found.length }
  }
  // read by libuv's thread pool: requests go on being answered while a new snapshot loads
  const array = async <T extends ColumnType>(name: string, type: T): Promise<ArrayOf<T>> => {
    const { file, length } = column(name, type)
    const values = new ARRAYS[type](length) as ArrayOf<T>
    if (length === 0) return values
    const bytes = new Uint8Array(values.buffer)
    const handle = await fs.promises.open(file, 'r')
    try {
      for (let done = 0; done < bytes.length; ) {
        const { bytesRead } = await handle.read(bytes, done, bytes.length - done, done)
        if (bytesRead === 0) throw new Error(`${file}: shorter than its columns.json length`)
        done += bytesRead
      }
    } finally {
      await handle.close()
    }
    return values
  }
  const disk = <T extends ColumnType>(name: string, type: T): DiskColumn<T> => {
    const { file, length } = column(name, type)
    return new DiskColumn(file, type, length)
  }
  const texts = async (name: string, where: 'memory' | 'disk') => {
    const bytes = where === 'memory' ? Buffer.from((await array(`${name}.utf8`, 'u8')).buffer) : disk(`${name}.utf8`, 'u8')
    return new Texts(await array(`${name}.offsets`, 'f64'), bytes, columns[`${name}.null`] ? await array(`${name}.null`, 'u8') : null)
  }
  const reference = kind === 'snapshot' ? JSON.parse(fs.readFileSync(path.join(dir, 'reference.json'), 'utf8')) : {}
  return { length: (name: string) => columns[name]?.length ?? 0, array, disk, texts, reference }
}
