/** account_idx by platform_id (`server/internal/id_index.ts`): every id is found at its index, no other id is. */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { IdIndex } from '../server/internal/id_index.ts'

const test = suite('id index')

/** Deterministic 64-bit values (splitmix64). */
function* ids(seed: bigint): Generator<bigint> {
  let state = seed
  for (;;) {
    state = (state + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn
    let z = state
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn
    yield z ^ (z >> 31n)
  }
}

/** Ascending unique ids: random 64-bit ones, snowflake-like ones, small legacy ones, and the extremes. */
function sortedIds(): BigUint64Array {
  const set = new Set<bigint>([0n, 1n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 64n - 1n])
  const random = ids(7n)
  for (let i = 0; i < 20_000; i++) set.add(random.next().value)
  for (let i = 0; i < 20_000; i++) set.add(1_500_000_000_000_000_000n + BigInt(i) * 4_194_304n) // same low bits, other highs
  for (let i = 0; i < 20_000; i++) set.add(BigInt(100_000_000 + i * 3)) // high half 0
  return BigUint64Array.from([...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
}

test('find :: every id at its index, whatever its bits', () => {
  const column = sortedIds()
  const index = new IdIndex(column)
  for (let idx = 0; idx < column.length; idx++) if (index.find(column[idx]) !== idx) assert.unreachable(`id ${column[idx]}`)
})

test('find :: absent ids, ids past 64 bits and negative ones find nothing', () => {
  const column = sortedIds()
  const present = new Set(column)
  const index = new IdIndex(column)
  const random = ids(99n)
  let absent = 0
  for (let i = 0; i < 50_000; i++) {
    const id = random.next().value
    if (present.has(id)) continue
    absent++
    if (index.find(id) !== undefined) assert.unreachable(`absent id ${id}`)
  }
  assert.ok(absent > 49_000)
  assert.is(index.find(100_000_001n), undefined)
  // 2^64 + 1 would alias 1 in a 64-bit column
  assert.is(index.find(2n ** 64n + 1n), undefined)
  assert.is(index.find(-1n), undefined)
  assert.is(index.find(1n), 1)
})

test('find :: a column of one id and an empty one', () => {
  assert.is(new IdIndex(BigUint64Array.of(42n)).find(42n), 0)
  assert.is(new IdIndex(BigUint64Array.of(42n)).find(43n), undefined)
  assert.is(new IdIndex(new BigUint64Array(0)).find(42n), undefined)
})

test.run()
