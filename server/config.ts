/**
 * Server configuration, read once from the environment. Storage settings (`STORAGE_DRIVER`, `DATA_DIR`,
 * `REDIS_URL`) belong to `server/access` and are read there.
 *
 * @example const config = serverConfigFromEnv(); config.port // 3000
 */
import path from 'node:path'
import { storageConfigFromEnv } from './access/index.ts'

export interface ServerConfig {
  port: number
  host: string
  /** Folder holding the snapshot folders; the server serves `<snapshotsDir>/current`. */
  snapshotsDir: string
  /** `API_REAL_STATUS=1`: errors carry their real HTTP status instead of the compatibility 200. */
  realStatus: boolean
  /** Base of `platform_url` in `bulk_scores_check`. */
  profileBaseUrl: string
  /** Response-cache lifetime of every cached operation. */
  cacheTtlSeconds: number
  /** Response-cache lifetime of `get_followers_diff` (the spec allows `today` to be at most one hour stale). */
  cacheTtlFollowersDiffSeconds: number
  /** How often the `current` pointer is checked for a new snapshot. */
  snapshotPollSeconds: number
  /** Where resolved account lookups are recorded (`DATA_DIR/lookups`, for top_researched); null = `LOOKUPS_RECORD=0`. */
  lookupsDir: string | null
  /**
   * Prometheus metrics: `app` serves `/metrics` on the API's port (the default), `listener` on its own
   * `METRICS_HOST:METRICS_PORT` (keep it off the public interface), `off` with `METRICS=0`.
   */
  metricsAt: { mode: 'app' | 'listener' | 'off'; host: string; port: number }
}

/** Upper bound the spec puts on the staleness of `get_followers_diff.today`. */
const FOLLOWERS_DIFF_MAX_TTL_SECONDS = 3600

export function serverConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    port: integer(env, 'PORT', 3000, 0, 65_535),
    host: env.HOST || '127.0.0.1',
    snapshotsDir: path.resolve(env.SNAPSHOTS_DIR || './snapshots'),
    realStatus: env.API_REAL_STATUS === '1' || env.API_REAL_STATUS === 'true',
    profileBaseUrl: (env.PROFILE_BASE_URL || 'https://platform.example').replace(/\/+$/, ''),
    cacheTtlSeconds: integer(env, 'CACHE_TTL_SECONDS', 60),
    cacheTtlFollowersDiffSeconds: Math.min(integer(env, 'CACHE_TTL_FOLLOWERS_DIFF_SECONDS', 600), FOLLOWERS_DIFF_MAX_TTL_SECONDS),
    snapshotPollSeconds: integer(env, 'SNAPSHOT_POLL_SECONDS', 5, 1, 86_400),
    lookupsDir:
      env.LOOKUPS_RECORD === '0' || env.LOOKUPS_RECORD === 'false'
        ? null
        : path.join(storageConfigFromEnv(env).dataDir, 'lookups'),
    metricsAt: {
      mode: env.METRICS === '0' || env.METRICS === 'false' ? 'off' : env.METRICS_PORT ? 'listener' : 'app',
      host: env.METRICS_HOST || '127.0.0.1',
      port: integer(env, 'METRICS_PORT', 9464, 0, 65_535),
    },
  }
}

/** The whole number from `min` to `max` set in `env[name]`, `fallback` when unset; anything else refuses the start. */
function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const value = env[name]
  if (value === undefined || value === '') return fallback
  if (!/^\d+$/.test(value) || Number(value) < min) throw new Error(`${name} must be a whole number of at least ${min}, not "${value}"`)
  if (Number(value) > max) throw new Error(`${name} must be at most ${max}, not "${value}"`)
  return Number(value)
}
