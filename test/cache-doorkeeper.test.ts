/**
 * The response cache's keys (server/internal/cache_key.ts) and its doorkeeper (server/internal/doorkeeper.ts): a key
 * is admitted on its second sighting, the filter forgets after `capacity` new keys, and its false positives stay
 * rare. Through HTTP, see the `cache ::` cases of api-core.test.ts.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { cacheKey, cacheKeyHash } from '../server/access/cache-key.ts'
import { Doorkeeper } from '../server/internal/doorkeeper.ts'

/** The doorkeeper's question for a key written `operation?query@snapshot`. */
const keyHash = (key: string) => {
  const [, operation, search, snapshotId] = /^([^?]*)(\?[^@]*)?@(.*)$/.exec(key)!
  return cacheKeyHash(operation, search ?? '', snapshotId)
}

const Keys = suite('cache keys')

Keys('keys :: parameter order, empty parameters and the credential do not change a key or its hash', () => {
  const same = ['?days=7&by=score', '?by=score&days=7', '?api_key=ask_secret&days=7&&by=score', '?by=score&api_key&days=7&']
  for (const search of same) {
    assert.is(cacheKey('get_alpha', search, 's1'), 'get_alpha?by=score&days=7@s1', search)
    assert.is(cacheKeyHash('get_alpha', search, 's1'), cacheKeyHash('get_alpha', same[0], 's1'), search)
  }
  assert.is(cacheKey('get_alpha', '', 's1'), 'get_alpha?@s1')
  assert.is(cacheKeyHash('get_alpha', '', 's1'), cacheKeyHash('get_alpha', '?', 's1'))
  assert.is(cacheKeyHash('get_alpha', '?&api_key=x', 's1'), cacheKeyHash('get_alpha', '', 's1'))
})

Keys('keys :: a percent-encoded api_key name is the credential too (URLSearchParams decodes names)', () => {
  for (const search of ['?days=7&api%5Fkey=ask_secret&by=score', '?%61pi_key=ask%5Fsecret&by=score&days=7', '?by=score&%61%70%69%5f%6b%65%79=k&days=7']) {
    assert.is(new URLSearchParams(search).get('api_key') !== null, true, 'the server reads it as the key')
    assert.is(cacheKey('get_alpha', search, 's1'), 'get_alpha?by=score&days=7@s1', search)
    assert.is(cacheKeyHash('get_alpha', search, 's1'), cacheKeyHash('get_alpha', '?days=7&by=score', 's1'), search)
  }
  // names that do not decode to api_key stay parameters
  for (const search of ['?api%5Fkeys=1', '?api%ZZkey=1', '?%25api_key=1']) {
    assert.is(cacheKey('get_alpha', search, 's1'), `get_alpha${search}@s1`, search)
  }
})

Keys('keys :: another value, parameter, operation or snapshot is another key and another hash', () => {
  const keys = [
    ['get_alpha', '?days=7&by=score', 's1'],
    ['get_alpha', '?days=7&by=scores', 's1'],
    ['get_alpha', '?days=7', 's1'],
    ['get_alpha', '?days=7&by=score&by=score', 's1'],
    ['get_alpha', '?days=7&api_keys=1&by=score', 's1'],
    ['get_smart_follows', '?days=7&by=score', 's1'],
    ['get_alpha', '?days=7&by=score', 's2'],
  ] as const
  assert.is(new Set(keys.map(([o, q, id]) => cacheKey(o, q, id))).size, keys.length)
  assert.is(new Set(keys.map(([o, q, id]) => cacheKeyHash(o, q, id))).size, keys.length)
})

Keys('keys :: hashes of 100,000 different queries rarely collide', () => {
  const hashes = new Set<number>()
  for (let i = 0; i < 100_000; i++) hashes.add(cacheKeyHash('get_followers', `?username=user${i % 1000}&page=${Math.floor(i / 1000)}`, 's1'))
  // 32-bit hashes: ~1 expected collision in 100,000
  assert.ok(hashes.size > 100_000 - 10, `${100_000 - hashes.size} collisions`)
})

Keys.run()

const Door = suite('cache doorkeeper')

Door('admit :: a key is refused the first time and admitted from the second on', () => {
  const door = new Doorkeeper()
  assert.is(door.admit(keyHash('get_alpha?days=7@s1')), false)
  assert.is(door.admit(keyHash('get_alpha?days=7@s1')), true)
  assert.is(door.admit(keyHash('get_alpha?days=7@s1')), true)
  assert.is(door.admit(keyHash('get_alpha?days=30@s1')), false, 'another key is its own')
  assert.is(door.admit(keyHash('get_alpha?days=7@s2')), false, 'another snapshot is another key')
})

Door('admit :: the filter starts over after `capacity` new keys', () => {
  const door = new Doorkeeper(1024)
  assert.is(door.admit(keyHash('get_alpha?days=1@s1')), false)
  for (let i = 0; i < 900; i++) door.admit(keyHash(`get_followers?page=${i}@s1`))
  assert.is(door.admit(keyHash('get_alpha?days=1@s1')), true, 'still remembered before capacity')
  // a known key's sighting adds nothing; new keys (less the few false positives) fill the filter, which starts over
  for (let i = 900; i < 1536; i++) door.admit(keyHash(`get_followers?page=${i}@s1`))
  assert.is(door.admit(keyHash('get_alpha?days=1@s1')), false, 'forgotten once the filter started over')
})

Door('admit :: false positives stay rare when the filter is full', () => {
  const capacity = 2 ** 14
  const door = new Doorkeeper(capacity)
  for (let i = 0; i < capacity - 1000; i++) door.admit(keyHash(`get_followers?username=user${i}&page=1@snap`))
  let falsePositives = 0
  for (let i = 0; i < 1000; i++) if (door.admit(keyHash(`get_mentions_feed?platform_id=${1e15 + i}@snap`))) falsePositives++
  assert.ok(falsePositives < 20, `${falsePositives} of 1000 new keys taken for known ones`)
})

Door.run()
