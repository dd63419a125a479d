import path from 'node:path'
import { createAccessAdmin } from './admin.ts'
import { createAccessControl } from './admission.ts'
import { openEmbeddedBackend } from './stores/embedded.ts'
import { openRedisBackend } from './stores/redis.ts'
import { AccountRecords } from './records.ts'
import type { AccessServices, StorageConfig } from './types.ts'

const DEFAULT_CACHE_MAX_MB = 64

/**
 * Storage settings from the environment: `STORAGE_DRIVER` (`embedded`, the default, or `redis`), `DATA_DIR`
 * (default `./data`), `REDIS_URL` (required with `redis`), `CACHE_MAX_MB` (embedded cache bound, default 64).
 * @example storageConfigFromEnv({ STORAGE_DRIVER: 'redis', REDIS_URL: 'redis://127.0.0.1:6379' })
 */
export function storageConfigFromEnv(env: NodeJS.ProcessEnv = process.env): StorageConfig {
  const driver = env.STORAGE_DRIVER || 'embedded'
  if (driver !== 'embedded' && driver !== 'redis') {
    throw new Error(`STORAGE_DRIVER must be "embedded" or "redis", not "${driver}"`)
  }
  const cacheMb = Number(env.CACHE_MAX_MB || DEFAULT_CACHE_MAX_MB)
  if (!(cacheMb > 0)) throw new Error(`CACHE_MAX_MB must be a positive number, not "${env.CACHE_MAX_MB}"`)
  return {
    driver,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    redisUrl: env.REDIS_URL || undefined,
    cacheMaxBytes: Math.round(cacheMb * 1024 * 1024),
  }
}

/**
 * Open the storage and build the access services on it.
 * @example const { access, cache, admin, close } = await createServices(storageConfigFromEnv())
 */
export async function createServices(config: StorageConfig): Promise<AccessServices> {
  if (config.driver === 'redis' && !config.redisUrl) throw new Error('STORAGE_DRIVER=redis needs REDIS_URL')
  const backend =
    config.driver === 'redis'
      ? await openRedisBackend(config.redisUrl!)
      : await openEmbeddedBackend(config.dataDir, config.cacheMaxBytes ?? DEFAULT_CACHE_MAX_MB * 1024 * 1024)
  const records = new AccountRecords(backend.storage)
  return {
    access: createAccessControl(records, backend.counters),
    cache: backend.cache,
    admin: createAccessAdmin(records, backend),
    close: () => backend.close(),
  }
}
