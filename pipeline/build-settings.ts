/**
 * The build's folders and retention from the environment, shared by `npm run build` (the defaults of its flags) and
 * `npm start`, so that a build writes where the server reads: `SNAPSHOTS_DIR` (./snapshots), `STATE_DIR`
 * (<snapshots>/state), `SNAPSHOT_KEEP` (7), the server's lookup files under `DATA_DIR` (./data/lookups), and
 * `RAW_DIR` (./raw).
 *
 * @example const settings = buildSettingsFromEnv(); await buildSnapshot({ ...settings, date })
 */
import path from 'node:path'

export interface BuildSettings {
  rawDir: string
  snapshotsDir: string
  stateDir: string | undefined
  keep: number
  lookupsDir: string
}

export function buildSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): BuildSettings {
  const keep = Number(env.SNAPSHOT_KEEP || 7)
  if (!Number.isInteger(keep) || keep < 1) throw new Error(`SNAPSHOT_KEEP must be a positive integer, not "${env.SNAPSHOT_KEEP}"`)
  return {
    rawDir: path.resolve(env.RAW_DIR || './raw'),
    snapshotsDir: path.resolve(env.SNAPSHOTS_DIR || './snapshots'),
    stateDir: env.STATE_DIR ? path.resolve(env.STATE_DIR) : undefined,
    keep,
    // where the server records lookups (server/config.ts)
    lookupsDir: path.join(path.resolve(env.DATA_DIR || './data'), 'lookups'),
  }
}
