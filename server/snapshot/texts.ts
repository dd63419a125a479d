/**
 * A text column held compactly: every value's UTF-8 bytes back to back in one buffer, `offsets[i]..offsets[i+1]`
 * the bytes of row i, decoded when a row is rendered (millions of short strings as JS strings would take several
 * times the memory).
 *
 * @example new Texts(Uint32Array.of(0, 2, 2), Buffer.from('hi'), Uint8Array.of(0, 1)).at(1) // null
 */
export class Texts {
  constructor(
    private readonly offsets: Uint32Array,
    private readonly bytes: Buffer,
    /** 1 where the value is NULL; null when the column has none. */
    private readonly isNull: Uint8Array | null,
  ) {}

  get length(): number {
    return this.offsets.length - 1
  }

  at(row: number): string | null {
    if (this.isNull?.[row]) return null
    return this.bytes.toString('utf8', this.offsets[row], this.offsets[row + 1])
  }
}
