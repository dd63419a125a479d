/** Request memory (`server/internal/transient.ts`): views on shared slabs that never overlap. */
import * as assert from 'uvu/assert'
import { suite } from 'uvu'
import { keepTransient, transientArray, transientBytes } from '../server/internal/transient.ts'

const test = suite('transient request memory')

test('views :: bytes and arrays handed out across many slabs never share a byte', () => {
  const handed: { view: Uint8Array; mark: number }[] = []
  // odd sizes first so later arrays must be realigned; ~40 MB in all, i.e. well over a hundred slabs
  for (let i = 0; i < 20_000; i++) {
    const mark = i % 251
    const view =
      i % 3 === 0
        ? transientBytes(1 + ((i * 7919) % 4093))
        : (() => {
            const length = 1 + ((i * 104729) % 700)
            const values = i % 3 === 1 ? transientArray(Float64Array, length) : transientArray(Uint32Array, length)
            return new Uint8Array(values.buffer, values.byteOffset, values.byteLength)
          })()
    view.fill(mark)
    handed.push({ view, mark })
  }
  for (const { view, mark } of handed) assert.ok(view.every((byte) => byte === mark), 'a later view overwrote an earlier one')
})

test('views :: typed arrays start at their element alignment after any odd-sized bytes', () => {
  for (let i = 1; i < 64; i++) {
    transientBytes(i)
    const values = transientArray(Float64Array, 3)
    assert.is(values.byteOffset % 8, 0)
    values.set([1.5, -2, 3])
    assert.equal(Array.from(values), [1.5, -2, 3])
    assert.is(transientArray(BigUint64Array, 2).byteOffset % 8, 0)
  }
})

test('views :: large requests get memory of their own (a kept one pins no slab)', () => {
  const big = transientBytes(200_000)
  assert.is(big.length, 200_000)
  assert.is(big.buffer.byteLength >= 200_000 && big.byteOffset === 0, true)
  const values = transientArray(Float64Array, 100_000)
  assert.is(values.byteOffset, 0)
  assert.is(values.buffer.byteLength, 800_000)
  const small = transientBytes(100)
  assert.ok(small.buffer.byteLength > small.length, 'a small one is a view on a slab')
})

test('keepTransient :: the unused rest goes back to the slab, the kept bytes stay', () => {
  const out = transientBytes(300)
  out.fill(7)
  const kept = keepTransient(out, 21)
  assert.is(kept.length, 21)
  assert.is(kept.buffer, out.buffer)
  const next = transientBytes(50)
  assert.is(next.buffer, out.buffer)
  assert.is(next.byteOffset, out.byteOffset + 24, 'the next view starts at the kept length, aligned to 8')
  next.fill(9)
  assert.ok(kept.every((byte) => byte === 7))
  // not the last one handed out: nothing goes back, so nothing can overlap
  const earlier = transientBytes(100)
  transientBytes(10)
  const keptEarlier = keepTransient(earlier, 5)
  const after = transientBytes(10)
  assert.ok(after.byteOffset >= earlier.byteOffset + 100)
  assert.is(keptEarlier.length, 5)
  assert.throws(() => keepTransient(transientBytes(4), 5), /5 bytes of 4/)
})

test.run()
