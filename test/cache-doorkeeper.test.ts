/**
 * The response cache's doorkeeper (server/internal/doorkeeper.ts): a key is admitted on its second sighting, the
 * filter forgets after `capacity` new keys, and its false positives stay rare. Through HTTP, see the `cache ::`
 * cases of api-core.test.ts.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Doorkeeper } from '../server/internal/doorkeeper.ts'

const Door = suite('cache doorkeeper')

Door('admit :: a key is refused the first time and admitted from the second on', () => {
  const door = new Doorkeeper()
  assert.is(door.admit('get_alpha?days=7@s1'), false)
  assert.is(door.admit('get_alpha?days=7@s1'), true)
  assert.is(door.admit('get_alpha?days=7@s1'), true)
  assert.is(door.admit('get_alpha?days=30@s1'), false, 'another key is its own')
  assert.is(door.admit('get_alpha?days=7@s2'), false, 'another snapshot is another key')
})

Door('admit :: the filter starts over after `capacity` new keys', () => {
  const door = new Doorkeeper(1024)
  assert.is(door.admit('first'), false)
  for (let i = 0; i < 900; i++) door.admit(`filler-${i}`)
  assert.is(door.admit('first'), true, 'still remembered before capacity')
  // a known key's sighting adds nothing; new keys (less the few false positives) fill the filter, which starts over
  for (let i = 900; i < 1536; i++) door.admit(`filler-${i}`)
  assert.is(door.admit('first'), false, 'forgotten once the filter started over')
})

Door('admit :: false positives stay rare when the filter is full', () => {
  const capacity = 2 ** 14
  const door = new Doorkeeper(capacity)
  for (let i = 0; i < capacity - 1000; i++) door.admit(`get_followers?username=user${i}&page=1@snap`)
  let falsePositives = 0
  for (let i = 0; i < 1000; i++) if (door.admit(`get_mentions_feed?platform_id=${1e15 + i}@snap`)) falsePositives++
  assert.ok(falsePositives < 100, `${falsePositives} of 1000 new keys taken for known ones`)
})

Door.run()
