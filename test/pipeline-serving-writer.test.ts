/**
 * The serving writer's files (pipeline/serving-writer.ts): a column appended in pieces of any size, small ones
 * gathered and large ones written through, holds the pieces back to back in order, its length in `columns.json`;
 * the writer never appends to a file already there.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import fs from 'node:fs'
import path from 'node:path'
import { SERVING_FORMAT, ServingWriter } from '../pipeline/serving-writer.ts'
import { tempDir } from './_fixtures.ts'

const Writer = suite('serving writer')

/** `n` values i32 counting up from `from`. */
const counting = (from: number, n: number) => Int32Array.from({ length: n }, (_, i) => from + i)

Writer('pieces of every size, interleaved across columns, land in order', () => {
  const dir = tempDir('serving-writer')
  const out = new ServingWriter(dir)
  // sizes around the gathering buffer (256 KiB = 65,536 i32): empty, small, exactly full, over, far over
  const sizes = [0, 1, 1000, 65_535, 1, 65_536, 3, 200_000, 7, 65_537, 0, 12]
  let next = 0
  for (const size of sizes) {
    out.appendBytes('a', 'i32', counting(next, size))
    // a second column between the first's pieces, converted from f64 to u16
    out.append('b', 'u16', Float64Array.of(size % 65_536))
    next += size
  }
  out.finish()
  // the pieces count on from each other: the column is 0, 1, 2, ... in order
  const a = new Int32Array(new Uint8Array(fs.readFileSync(path.join(dir, 'a.bin'))).buffer)
  assert.equal(a.length, next)
  assert.ok(a.every((v, i) => v === i), 'column a holds every piece in order')
  const b = new Uint16Array(new Uint8Array(fs.readFileSync(path.join(dir, 'b.bin'))).buffer)
  assert.equal([...b], sizes.map((s) => s % 65_536))
  const columns = JSON.parse(fs.readFileSync(path.join(dir, 'columns.json'), 'utf8'))
  assert.equal(columns, { format: SERVING_FORMAT, columns: { a: { type: 'i32', length: next }, b: { type: 'u16', length: sizes.length } } })
})

Writer('an empty column is an empty file', () => {
  const dir = tempDir('serving-writer')
  const out = new ServingWriter(dir)
  out.appendBytes('empty', 'f64', new Float64Array(0))
  out.finish()
  assert.equal(fs.statSync(path.join(dir, 'empty.bin')).size, 0)
})

Writer('a column of another type, or over a file already there, is refused', () => {
  const dir = tempDir('serving-writer')
  const out = new ServingWriter(dir)
  out.appendBytes('a', 'i32', counting(0, 3))
  assert.throws(() => out.appendBytes('a', 'u8', new Uint8Array(1)), /serving column a: u8 after i32/)
  out.close()
  fs.writeFileSync(path.join(dir, 'linked.bin'), 'published')
  const again = new ServingWriter(dir)
  assert.throws(() => again.appendBytes('linked', 'u8', new Uint8Array(1)), /EEXIST/)
  again.close()
  assert.equal(fs.readFileSync(path.join(dir, 'linked.bin'), 'utf8'), 'published')
})

Writer.run()
