/**
 * Short-lived memory of a request (its response body, the rows it reads from disk) carved from shared slabs.
 *
 * A typed array or Buffer of more than 64 bytes gets a backing store of its own from `malloc`, tracked by V8 until a
 * collection frees it: ~0.7 µs each, several times per list request. Here such memory is a view on a 256 KiB slab:
 * a view costs a small heap object, and a slab is freed by the collector once no view of it is reachable. Nothing is
 * ever handed out twice, so no view can see another request's bytes; the price of keeping a view is its slab.
 * That is why this is for memory used during one request (and the socket write after it) only: whatever outlives
 * the request (a cached body, an index) is copied or allocated on its own.
 *
 * @example const body = transientBytes(length) // filled and sent; the cache keeps a copy (see memory-cache.ts)
 */

const SLAB_BYTES = 256 * 1024
/** Larger requests get memory of their own: a slab holds at least eight of them. */
const LARGEST = SLAB_BYTES / 8

let slab = new ArrayBuffer(0)
let used = 0

/**
 * Where the next `length` bytes start in `slab` (which it may replace: read `slab` after calling it), at an offset
 * aligned to 8 so any typed array can view them. A new slab is not zeroed: callers write every byte they hand out.
 */
function carve(length: number): number {
  if (used + length > slab.byteLength) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES).buffer
    used = 0
  }
  const at = used
  used = (used + length + 7) & ~7
  return at
}

/** An uninitialised Buffer of `length` bytes for use during this request (the caller writes every byte). */
export function transientBytes(length: number): Buffer {
  if (length > LARGEST) return Buffer.allocUnsafe(length)
  const at = carve(length)
  return Buffer.from(slab, at, length)
}

/**
 * The first `length` bytes of `bytes` (the last `transientBytes` handed out, filled up to `length`); the rest goes
 * back to the slab: for a caller that knows only a bound of its size beforehand.
 *
 * @example const out = transientBytes(text.length * 3); return keepTransient(out, out.write(text))
 */
export function keepTransient(bytes: Buffer, length: number): Buffer {
  if (length > bytes.length) throw new RangeError(`keepTransient: ${length} bytes of ${bytes.length}`)
  if (bytes.buffer === slab && ((bytes.byteOffset + bytes.length + 7) & ~7) === used) used = (bytes.byteOffset + length + 7) & ~7
  return bytes.subarray(0, length)
}

/** Typed arrays with their element size: what `transientArray` can make. */
export type TypedArrayType<A> = { new (buffer: ArrayBuffer, byteOffset: number, length: number): A; new (length: number): A; BYTES_PER_ELEMENT: number }

/** A typed array of `length` elements for use during this request (the caller writes every element). */
export function transientArray<A>(type: TypedArrayType<A>, length: number): A {
  const bytes = length * type.BYTES_PER_ELEMENT
  if (bytes > LARGEST) return new type(length)
  const at = carve(bytes)
  return new type(slab, at, length)
}
