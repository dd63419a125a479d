/**
 * Lower-case handles (current usernames, slugs, previous usernames) → account_idx in typed arrays, off the JS heap:
 * an open-addressing table of (hash, entry) pairs and the keys' characters back to back.
 *
 * Why not a `Map`: at 1M accounts the three handle Maps were 2.3M entries in ~90 MB of heap, and with them in the
 * heap every request of the server cost more, whatever it looked up: large `get_mentions_feed` (by platform_id,
 * no handle lookup) 41.7 → 36.8 µs of CPU per request with the Maps dropped (two alternated pairs; the heap
 * 380 → 289 MiB). A lookup itself costs about the same as a Map's (it is a cache miss either way: ~2.6 µs against
 * ~3.6 µs after 1 MB of other reads, 0.6 against 0.9 µs warm).
 *
 * @example const handles = HandleIndex.fromMaps([byUsername, bySlug]); handles.find('alice') // 42
 */

/** Keys per slot at most (linear probing stays short below ~0.6). */
const MAX_LOAD = 0.6

export class HandleIndex {
  /** Per slot: the key's hash, then its entry + 1 (0: an empty slot). */
  readonly #slots: Int32Array
  readonly #mask: number
  /** Entry e's key is `#chars[#keyStart[e] .. #keyStart[e + 1] - 1]` (UTF-16 units; bytes when all are Latin-1). */
  readonly #keyStart: Uint32Array
  readonly #chars: Uint8Array | Uint16Array
  readonly #account: Int32Array
  readonly size: number

  /**
   * The keys of `maps` (already lower-case), each with the account of the first map that has it: the maps in
   * priority order (current usernames, then slugs, then previous usernames).
   */
  static fromMaps(maps: readonly ReadonlyMap<string, number>[]): HandleIndex {
    const keys: string[] = []
    const accounts: number[] = []
    const claimed = (key: string, before: number) => {
      for (let m = 0; m < before; m++) if (maps[m].has(key)) return true
      return false
    }
    maps.forEach((map, m) => {
      for (const [key, idx] of map) {
        if (claimed(key, m)) continue
        keys.push(key)
        accounts.push(idx)
      }
    })
    return new HandleIndex(keys, accounts)
  }

  /** `keys` (distinct) to `accounts` at the same positions. */
  constructor(keys: readonly string[], accounts: readonly number[]) {
    this.size = keys.length
    let slots = 16
    while (keys.length > slots * MAX_LOAD) slots *= 2
    this.#slots = new Int32Array(2 * slots)
    this.#mask = slots - 1
    this.#keyStart = new Uint32Array(keys.length + 1)
    let units = 0
    let latin1 = true
    for (const key of keys) {
      units += key.length
      for (let i = 0; i < key.length && latin1; i++) latin1 = key.charCodeAt(i) < 256
    }
    this.#chars = latin1 ? new Uint8Array(units) : new Uint16Array(units)
    this.#account = Int32Array.from(accounts)
    let at = 0
    for (let entry = 0; entry < keys.length; entry++) {
      const key = keys[entry]
      this.#keyStart[entry] = at
      for (let i = 0; i < key.length; i++) this.#chars[at++] = key.charCodeAt(i)
      this.#keyStart[entry + 1] = at
      const hash = hashOf(key)
      let slot = hash & this.#mask
      for (; this.#slots[2 * slot + 1] !== 0; slot = (slot + 1) & this.#mask) {
        if (this.#slots[2 * slot] === hash && this.#keyIs(this.#slots[2 * slot + 1] - 1, key)) throw new Error(`HandleIndex: key ${key} twice`)
      }
      this.#slots[2 * slot] = hash
      this.#slots[2 * slot + 1] = entry + 1
    }
  }

  /** The account of `key` (lower-case, as built), or undefined. */
  find(key: string): number | undefined {
    const hash = hashOf(key)
    for (let slot = hash & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const entry = this.#slots[2 * slot + 1] - 1
      if (entry < 0) return undefined
      if (this.#slots[2 * slot] === hash && this.#keyIs(entry, key)) return this.#account[entry]
    }
  }

  #keyIs(entry: number, key: string): boolean {
    const start = this.#keyStart[entry]
    if (this.#keyStart[entry + 1] - start !== key.length) return false
    for (let i = 0; i < key.length; i++) if (this.#chars[start + i] !== key.charCodeAt(i)) return false
    return true
  }
}

/** FNV-1a over the UTF-16 units, then murmur3's final mix (the low bits pick the slot). */
function hashOf(key: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193)
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return h ^ (h >>> 16)
}
