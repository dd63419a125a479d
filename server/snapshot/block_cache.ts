/**
 * Blocks of the serving-cache files that stay on disk, kept in memory after their first read: a bounded pool of
 * fixed-size blocks shared by every sidecar of the process (what a database's buffer pool does; Node cannot `mmap`).
 * A request's small read (a page of `subscribed_at`, an account's daily series) then copies from memory instead of
 * asking the kernel: one `fs.readSync` from the page cache costs a system call plus Node's argument checks, ~3 µs.
 *
 * Eviction is CLOCK (second chance): a block read since the hand last passed it stays for another turn, so the pages
 * of the accounts asked about most stay in memory. Reads longer than `MAX_CACHED_BLOCKS` blocks (a whole target's
 * followers for a filter) go to the file directly: such scans would otherwise push out everything else.
 *
 * Files are immutable once opened (a sidecar is written before it is read and never changed; its `pending` columns
 * are never read through the sidecar that serves during the commit), so a cached block is never stale. Each open
 * sidecar has its own `BlockMap`: blocks of different files or of a reopened file never mix, and the blocks of a
 * retired snapshot are simply the first the hand takes.
 *
 * @example const cache = new BlockCache(64 * 2 ** 20); const blocks = new Map(); cache.read(fd, blocks, 8192, into)
 */
import fs from 'node:fs'

/** Bytes per block: one page of the OS page cache. */
export const BLOCK_BYTES = 4096
/** Longest read served through the pool, in blocks (64 KiB); longer ones read the file directly. */
export const MAX_CACHED_BLOCKS = 16

/** One open file's cached blocks: block number → slot of the pool. */
export type BlockMap = Map<number, number>

export class BlockCache {
  readonly #pool: Buffer
  readonly #slots: number
  /** Bytes of the slot's block that the file holds (less than a block only at the end of the file). */
  readonly #valid: Int32Array
  /** The block number held by each slot, and the map that names it (null: free or failed). */
  readonly #block: Float64Array
  readonly #owner: (BlockMap | null)[]
  /** CLOCK's second-chance bits. */
  readonly #referenced: Uint8Array
  #hand = 0
  #filled = 0
  /** Blocks found in the pool and blocks read from files, since start (for `/healthz`). */
  #hits = 0
  #misses = 0

  /** A pool of `bytes` (rounded down to whole blocks; less than one block disables the cache). */
  constructor(bytes: number) {
    this.#slots = Math.max(0, Math.floor(bytes / BLOCK_BYTES))
    this.#pool = Buffer.allocUnsafeSlow(this.#slots * BLOCK_BYTES)
    this.#valid = new Int32Array(this.#slots)
    this.#block = new Float64Array(this.#slots)
    this.#owner = new Array<BlockMap | null>(this.#slots).fill(null)
    this.#referenced = new Uint8Array(this.#slots)
  }

  /** The pool's size (reserved up front), the blocks it holds, and the blocks found and read since start. */
  report(): { bytes: number; blocks: number; hits: number; misses: number } {
    return { bytes: this.#pool.length, blocks: this.#filled, hits: this.#hits, misses: this.#misses }
  }

  /**
   * Fill `into` with the bytes of file `fd` from byte `position` on, through the pool when the read is short enough
   * (`blocks`: the file's own map). Throws at the end of the file, like a short read would.
   */
  read(fd: number, blocks: BlockMap, position: number, into: Uint8Array): void {
    const length = into.byteLength
    if (this.#slots < MAX_CACHED_BLOCKS || length > MAX_CACHED_BLOCKS * BLOCK_BYTES) return readFully(fd, into, 0, length, position)
    for (let done = 0; done < length; ) {
      const at = position + done
      const block = Math.floor(at / BLOCK_BYTES)
      const offset = at - block * BLOCK_BYTES
      let slot = blocks.get(block)
      if (slot === undefined) slot = this.#load(fd, blocks, block)
      else {
        this.#referenced[slot] = 1
        this.#hits++
      }
      const take = Math.min(length - done, this.#valid[slot] - offset)
      if (take <= 0) throw new RangeError('unexpected end of file')
      const from = slot * BLOCK_BYTES + offset
      this.#pool.copy(into, done, from, from + take)
      done += take
    }
  }

  /** Read `block` of the file into a slot taken from the clock, and name it in `blocks`. */
  #load(fd: number, blocks: BlockMap, block: number): number {
    const slot = this.#filled < this.#slots ? this.#filled++ : this.#evict()
    this.#misses++
    const start = slot * BLOCK_BYTES
    let valid = 0
    while (valid < BLOCK_BYTES) {
      const n = fs.readSync(fd, this.#pool, start + valid, BLOCK_BYTES - valid, block * BLOCK_BYTES + valid)
      if (n === 0) break
      valid += n
    }
    this.#valid[slot] = valid
    this.#block[slot] = block
    this.#owner[slot] = blocks
    this.#referenced[slot] = 1
    blocks.set(block, slot)
    return slot
  }

  /** The first slot whose block was not read since the hand last passed it, emptied. */
  #evict(): number {
    while (this.#referenced[this.#hand] === 1) {
      this.#referenced[this.#hand] = 0
      this.#hand = this.#hand + 1 === this.#slots ? 0 : this.#hand + 1
    }
    const slot = this.#hand
    this.#hand = slot + 1 === this.#slots ? 0 : slot + 1
    const owner = this.#owner[slot]
    if (owner && owner.get(this.#block[slot]) === slot) owner.delete(this.#block[slot])
    // free until its new block is read: a failed read leaves nothing that names this slot
    this.#owner[slot] = null
    return slot
  }
}

/** Fill `into[offset..offset+length)` from the file at `position`; throws at the end of the file. */
export function readFully(fd: number, into: Uint8Array, offset: number, length: number, position: number): void {
  for (let done = 0; done < length; ) {
    const n = fs.readSync(fd, into, offset + done, length - done, position + done)
    if (n === 0) throw new RangeError('unexpected end of file')
    done += n
  }
}
