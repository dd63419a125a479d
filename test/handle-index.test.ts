/**
 * The handle table of a snapshot (server/internal/handle_index.ts): every key finds its account, anything else finds
 * nothing, and a key of several maps belongs to the first (current username, then slug, then previous username).
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { HandleIndex } from '../server/internal/handle_index.ts'

const Handles = suite('handle index')

/** Deterministic handles: ASCII mostly, some Latin-1, some beyond (CJK, an emoji's surrogate pair). */
function handles(count: number, seed: number): string[] {
  const alphabets = ['abcdefghijklmnopqrstuvwxyz0123456789_', 'àéïöüßø', '漢字かな', '\u{1f680}']
  let x = seed
  const next = () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 2 ** 32
  }
  const out = new Set<string>()
  while (out.size < count) {
    let key = ''
    const length = 1 + Math.floor(next() * 15)
    for (let i = 0; i < length; i++) {
      const r = next()
      const alphabet = [...alphabets[r < 0.9 ? 0 : r < 0.96 ? 1 : r < 0.99 ? 2 : 3]]
      key += alphabet[Math.floor(next() * alphabet.length)]
    }
    out.add(key)
  }
  return [...out]
}

Handles('find :: every key finds its account among 50,000, in ASCII or not', () => {
  const keys = handles(50_000, 7)
  const index = new HandleIndex(keys, keys.map((_, i) => i * 3))
  assert.is(index.size, keys.length)
  keys.forEach((key, i) => assert.is(index.find(key), i * 3, key))
})

Handles('find :: a key not built finds nothing: other handles, prefixes, extensions, other case, empty', () => {
  const keys = handles(20_000, 11)
  const index = new HandleIndex(keys, keys.map((_, i) => i))
  const built = new Set(keys)
  for (const other of handles(20_000, 12)) if (!built.has(other)) assert.is(index.find(other), undefined, other)
  for (const key of keys.slice(0, 2000)) {
    for (const variant of [key.slice(0, -1), `${key}a`, `a${key}`, key.toUpperCase()]) {
      if (!built.has(variant)) assert.is(index.find(variant), undefined, variant)
    }
  }
  assert.is(index.find(''), undefined)
})

Handles('find :: keys all in Latin-1, and keys with one character beyond it, are found', () => {
  // (the first kind is kept as bytes, the second as UTF-16 units)
  const latin1 = new HandleIndex(['abc', 'é', 'ÿß'], [1, 2, 3])
  assert.equal(['abc', 'é', 'ÿß', 'ā'].map((key) => latin1.find(key)), [1, 2, 3, undefined])
  const wide = new HandleIndex(['abc', 'é', '漢字'], [1, 2, 3])
  assert.equal(['abc', 'é', '漢字', '漢'].map((key) => wide.find(key)), [1, 2, 3, undefined])
})

Handles('fromMaps :: a key of several maps belongs to the first that has it', () => {
  const usernames = new Map([['alice', 1], ['bob', 2]])
  const slugs = new Map([['bob', 20], ['carol', 30], ['dave', 40]])
  const previous = new Map([['alice', 100], ['dave', 400], ['erin', 500]])
  const index = HandleIndex.fromMaps([usernames, slugs, previous])
  assert.equal(
    ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'].map((key) => index.find(key)),
    [1, 2, 30, 40, 500, undefined],
  )
  assert.is(index.size, 5)
})

Handles('build :: the same key twice is refused', () => {
  assert.throws(() => new HandleIndex(['a', 'b', 'a'], [1, 2, 3]), /key a twice/)
})

Handles.run()
