/**
 * Access rules that need no store: which credential wins, rate strings, storage and cache settings from the
 * environment, and the embedded response cache's bound.
 */
import path from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { serverConfigFromEnv } from '../server/config.ts'
import { parseRate, rateUnit, readApiKey, storageConfigFromEnv } from '../server/access/index.ts'
import { openEmbeddedBackend } from '../server/access/stores/embedded.ts'
import { tempDir as fixtureTempDir } from './_fixtures.ts'
import { credentials } from './_access.ts'

const rules = suite('access rules')

rules('credentials :: readApiKey reports the winning credential and where it came from', () => {
  assert.equal(readApiKey(credentials({ header: 'h', bearer: 'b', query: 'q' })), { key: 'h', source: 'header' })
  assert.equal(readApiKey(credentials({ bearer: 'b', query: 'q' })), { key: 'b', source: 'bearer' })
  assert.equal(readApiKey(credentials({ query: 'q' })), { key: 'q', source: 'query' })
  assert.is(readApiKey(credentials({})), null)
})

rules('credentials :: two Authorization bearer fields make the credential invalid, not missing', () => {
  const query = new URLSearchParams()
  const twice = new Headers()
  twice.append('Authorization', 'Bearer ask_1')
  twice.append('Authorization', 'Bearer ask_2')
  assert.is(readApiKey({ headers: twice, query }), 'invalid')
  assert.is(readApiKey({ headers: new Headers({ authorization: 'Bearer ask_1 ask_2' }), query }), 'invalid')
  twice.set('x-api-key', 'ask_3')
  assert.equal(readApiKey({ headers: twice, query }), { key: 'ask_3', source: 'header' }, 'the header still wins')
  assert.is(readApiKey({ headers: new Headers({ authorization: 'Basic x, Basic y' }), query }), null)
})

rules('cache :: the embedded cache holds at most its bytes of keys and bodies, the least recently used out first', async () => {
  const backend = await openEmbeddedBackend(fixtureTempDir('lru-cache'), 4096)
  try {
    const body = (i: number) => `{"n":${i},"pad":"${'x'.repeat(900)}"}`
    for (let i = 0; i < 3; i++) await backend.cache.set(`k${i}`, body(i), 60)
    assert.is(await backend.cache.get('k0'), body(0), 'k0 is now the most recently used')
    for (let i = 3; i < 6; i++) await backend.cache.set(`k${i}`, body(i), 60)
    const held = []
    for (let i = 0; i < 6; i++) if ((await backend.cache.get(`k${i}`)) === body(i)) held.push(i)
    assert.ok(held.length >= 2 && held.length <= 4, `${held} fit in 4 KiB`)
    assert.ok(held.includes(5) && !held.includes(1), `${held}: the newest kept, the least recently used gone`)
  } finally {
    await backend.close()
  }
})

rules('plans :: rate strings parse to a total and a period, unknown units fall back to minute', () => {
  assert.equal(parseRate('1000/minute'), { total: 1000, period: 'minute' })
  assert.equal(parseRate('10/second'), { total: 10, period: 'second' })
  assert.equal(parseRate('5/hour'), { total: 5, period: 'hour' })
  assert.equal(parseRate('7/day'), { total: 7, period: 'day' })
  assert.equal(parseRate('7/toString'), { total: 7, period: 'minute' })
  assert.equal(parseRate('7/weeks'), { total: 7, period: 'minute' })
  assert.equal(parseRate('20/Hours'), { total: 20, period: 'hour' })
  assert.equal(parseRate('3/SECONDS'), { total: 3, period: 'second' })
  assert.equal([rateUnit('20/Hours'), rateUnit('7/fortnight'), rateUnit('7')], ['hour', null, null])
  assert.throws(() => parseRate('fast'), /Invalid rate/)
})

rules('config :: STORAGE_DRIVER, DATA_DIR and REDIS_URL with their defaults', () => {
  const defaults = storageConfigFromEnv({})
  assert.equal([defaults.driver, defaults.dataDir, defaults.redisUrl], ['embedded', path.resolve('./data'), undefined])
  const redis = storageConfigFromEnv({ STORAGE_DRIVER: 'redis', REDIS_URL: 'redis://127.0.0.1:6390', DATA_DIR: '/tmp/x' })
  assert.equal([redis.driver, redis.dataDir, redis.redisUrl], ['redis', '/tmp/x', 'redis://127.0.0.1:6390'])
  assert.throws(() => storageConfigFromEnv({ STORAGE_DRIVER: 'memcached' }), /STORAGE_DRIVER must be/)
})

rules('config :: cache TTLs: CACHE_TTL_SECONDS, and get_followers_diff’s own, capped at one hour', () => {
  const defaults = serverConfigFromEnv({})
  assert.equal([defaults.cacheTtlSeconds, defaults.cacheTtlFollowersDiffSeconds], [60, 600])
  const set = serverConfigFromEnv({ CACHE_TTL_SECONDS: '5', CACHE_TTL_FOLLOWERS_DIFF_SECONDS: '1800' })
  assert.equal([set.cacheTtlSeconds, set.cacheTtlFollowersDiffSeconds], [5, 1800])
  assert.is(serverConfigFromEnv({ CACHE_TTL_FOLLOWERS_DIFF_SECONDS: '86400' }).cacheTtlFollowersDiffSeconds, 3600)
  assert.is(serverConfigFromEnv({ CACHE_TTL_SECONDS: '0' }).cacheTtlSeconds, 0)
})

rules('config :: a number that does not parse refuses the start, naming the variable', () => {
  for (const [name, value] of [['PORT', '8080x'], ['CACHE_TTL_SECONDS', '5m'], ['METRICS_PORT', 'abc'], ['SNAPSHOT_POLL_SECONDS', '0'], ['PORT', '-1']]) {
    assert.throws(() => serverConfigFromEnv({ [name]: value }), new RegExp(`^${name} must be a whole number of at least \\d, not "${value}"$`), `${name}=${value}`)
  }
  assert.equal([serverConfigFromEnv({ PORT: '0' }).port, serverConfigFromEnv({ SNAPSHOT_POLL_SECONDS: '1' }).snapshotPollSeconds], [0, 1])
  assert.throws(() => serverConfigFromEnv({ PORT: '99999' }), /^PORT must be at most 65535, not "99999"$/)
  assert.throws(() => serverConfigFromEnv({ SNAPSHOT_POLL_SECONDS: '99999999' }), /^SNAPSHOT_POLL_SECONDS must be at most 86400/)
})

rules.run()
