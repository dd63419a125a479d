/**
 * The pool of serving-cache blocks (server/snapshot/block_cache.ts): any read through it returns the file's bytes,
 * whatever the pool holds, evicts or was asked before, across block edges, to the end of a file and for several
 * files at once.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { BLOCK_BYTES, BlockCache, MAX_CACHED_BLOCKS, type BlockMap } from '../server/snapshot/block_cache.ts'
import { tempDir } from './_fixtures.ts'

const Blocks = suite('block cache')

const dir = tempDir('block-cache')

/** A file of random bytes (not a whole number of blocks), open for reading. */
function randomFile(name: string, bytes: number): { fd: number; content: Buffer; blocks: BlockMap } {
  const content = crypto.randomBytes(bytes)
  const file = path.join(dir, name)
  fs.writeFileSync(file, content)
  return { fd: fs.openSync(file, 'r'), content, blocks: new Map() }
}

/** A deterministic sequence of numbers in 0..1 (xorshift), so a failure can be replayed. */
function random(seed: number): () => number {
  let x = seed
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 2 ** 32
  }
}

Blocks('reads :: random ranges of two files through a pool far smaller than them are their bytes', () => {
  const cache = new BlockCache(24 * BLOCK_BYTES)
  const files = [randomFile('a.bin', 100 * BLOCK_BYTES + 123), randomFile('b.bin', 60 * BLOCK_BYTES + 7)]
  const next = random(42)
  for (let i = 0; i < 5000; i++) {
    const file = files[i % 2]
    // mostly short reads (a page), sometimes across several blocks, often near the end of the file
    const length = next() < 0.8 ? 1 + Math.floor(next() * 300) : Math.floor(next() * 5 * BLOCK_BYTES)
    const start = next() < 0.1 ? file.content.length - length : Math.floor(next() * (file.content.length - length))
    const into = new Uint8Array(length)
    cache.read(file.fd, file.blocks, start, into)
    assert.ok(Buffer.from(into).equals(file.content.subarray(start, start + length)), `read ${i}: ${start}+${length}`)
  }
  const report = cache.report()
  assert.is(report.blocks, 24, 'every slot used')
  assert.ok(report.misses > 24 && report.hits > 0, JSON.stringify(report))
  assert.ok(files.every((f) => f.blocks.size <= 24), 'a file names no more blocks than the pool holds')
})

Blocks('reads :: a block read again is a hit; eviction spares a block read since the clock hand passed it', () => {
  const cache = new BlockCache(MAX_CACHED_BLOCKS * BLOCK_BYTES)
  const { fd, content, blocks } = randomFile('c.bin', 40 * BLOCK_BYTES)
  const read = (block: number) => {
    const into = new Uint8Array(10)
    cache.read(fd, blocks, block * BLOCK_BYTES + 5, into)
    assert.ok(Buffer.from(into).equals(content.subarray(block * BLOCK_BYTES + 5, block * BLOCK_BYTES + 15)))
  }
  for (let b = 0; b < MAX_CACHED_BLOCKS; b++) read(b)
  assert.equal(cache.report(), { bytes: MAX_CACHED_BLOCKS * BLOCK_BYTES, blocks: MAX_CACHED_BLOCKS, hits: 0, misses: MAX_CACHED_BLOCKS })
  read(3)
  assert.is(cache.report().hits, 1)
  // a full pool: the clock clears every second chance once, then takes slot 0 (block 0)
  read(MAX_CACHED_BLOCKS)
  assert.not.ok(blocks.has(0), 'block 0 was evicted')
  assert.ok(blocks.has(3) && blocks.has(MAX_CACHED_BLOCKS))
  // the hand is at block 1 now; read again since the hand passed it, block 1 is spared and block 2 taken
  read(1)
  read(MAX_CACHED_BLOCKS + 1)
  assert.ok(blocks.has(1), 'block 1, read since the hand passed, stays')
  assert.not.ok(blocks.has(2), 'block 2 was evicted')
})

Blocks('reads :: reads longer than the pool serves go to the file and keep nothing', () => {
  const cache = new BlockCache(32 * BLOCK_BYTES)
  const { fd, content, blocks } = randomFile('d.bin', 40 * BLOCK_BYTES)
  const into = new Uint8Array(MAX_CACHED_BLOCKS * BLOCK_BYTES + 1)
  cache.read(fd, blocks, 100, into)
  assert.ok(Buffer.from(into).equals(content.subarray(100, 100 + into.length)))
  assert.is(blocks.size, 0)
  assert.equal(cache.report().misses, 0)
})

Blocks('reads :: a pool smaller than the longest cached read reads every block from the file', () => {
  const cache = new BlockCache(MAX_CACHED_BLOCKS * BLOCK_BYTES - 1)
  const { fd, content, blocks } = randomFile('e.bin', 3 * BLOCK_BYTES)
  const into = new Uint8Array(20)
  cache.read(fd, blocks, BLOCK_BYTES - 10, into)
  assert.ok(Buffer.from(into).equals(content.subarray(BLOCK_BYTES - 10, BLOCK_BYTES + 10)))
  assert.equal(cache.report(), { bytes: (MAX_CACHED_BLOCKS - 1) * BLOCK_BYTES, blocks: 0, hits: 0, misses: 0 })
})

Blocks('reads :: past the end of the file throws, and the pool still answers right afterwards', () => {
  const cache = new BlockCache(MAX_CACHED_BLOCKS * BLOCK_BYTES)
  const { fd, content, blocks } = randomFile('f.bin', 2 * BLOCK_BYTES + 50)
  assert.throws(() => cache.read(fd, blocks, 2 * BLOCK_BYTES + 40, new Uint8Array(11)), /unexpected end of file/)
  assert.throws(() => cache.read(fd, blocks, 3 * BLOCK_BYTES, new Uint8Array(1)), /unexpected end of file/)
  const into = new Uint8Array(10)
  cache.read(fd, blocks, 2 * BLOCK_BYTES + 40, into)
  assert.ok(Buffer.from(into).equals(content.subarray(2 * BLOCK_BYTES + 40)))
})

Blocks.run()
