/**
 * The response cache's admission filter (TinyLFU's "doorkeeper"): a Bloom filter of the keys asked recently. A body
 * is stored when its key was already asked once, so queries asked only once (most of them, for a long tail of
 * accounts and pages) cost neither memory nor the eviction of entries that are asked again. The filter forgets
 * everything after `capacity` new keys. Three bits per key in 16 × `capacity` bits bound its false positives (a
 * once-asked body stored anyway, at the cost of copying and later evicting it) to 0.5% when full, ~0.1% on average
 * over a filling. The default capacity, 32,768 keys, is a few times the entries a 64 MB cache of list pages holds, in
 * a 64 KiB table that stays in the CPU's caches between requests.
 *
 * Keys come as their 32-bit hashes (`cacheKeyHash`), so asking costs no key string.
 *
 * @example const door = new Doorkeeper(); door.admit(cacheKeyHash('get_alpha', '?days=7', id)) // false: first time; true the next time
 */
export class Doorkeeper {
  private readonly bits: Uint32Array
  private readonly mask: number
  private added = 0

  /** `capacity` (a power of two) keys in 16 × `capacity` bits, three bits per key. */
  constructor(private readonly capacity = 2 ** 15) {
    this.bits = new Uint32Array(capacity / 2)
    this.mask = capacity * 16 - 1
  }

  /** Whether the key of `hash` was asked since the filter last started over; marks it as asked. */
  admit(hash: number): boolean {
    const first = hash & this.mask
    const second = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d) & this.mask
    const third = Math.imul(hash ^ (hash >>> 9), 0x297a2d39) & this.mask
    const seen = this.has(first) && this.has(second) && this.has(third)
    if (!seen) {
      if (++this.added > this.capacity) {
        this.bits.fill(0)
        this.added = 1
      }
      this.bits[first >>> 5] |= 1 << (first & 31)
      this.bits[second >>> 5] |= 1 << (second & 31)
      this.bits[third >>> 5] |= 1 << (third & 31)
    }
    return seen
  }

  private has(bit: number): boolean {
    return (this.bits[bit >>> 5] & (1 << (bit & 31))) !== 0
  }
}
