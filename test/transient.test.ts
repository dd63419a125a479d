/** Request memory (`server/internal/transient.ts`): views on shared slabs that never overlap. */
import * as assert from 'uvu/assert'
import { suite } from 'uvu'
import { transientArray, transientBytes } from '../server/internal/transient.ts'

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

test.run()
