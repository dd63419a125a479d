/**
 * Start the API: load the current snapshot, watch the pointer, open the access services and listen with listhen.
 * Used by `npm run serve`, `npm start`, the tests and the benchmark.
 *
 * @example const server = await startServer(serverConfigFromEnv()); server.url // 'http://127.0.0.1:3000/'
 */
import type { Server } from 'node:http'
import { toNodeHandler } from 'h3'
import { listen } from 'listhen'
import { log } from '../log/logger.ts'
import type { AccessServices } from './access/index.ts'
import { createApp } from './app.ts'
import type { ServerConfig } from './config.ts'
import { LookupRecorder } from './lookups.ts'
import { CurrentSnapshot } from './snapshot/current.ts'

export interface RunningServer {
  /** Base URL with a trailing slash, e.g. `http://127.0.0.1:41234/`. */
  url: string
  snapshots: CurrentSnapshot
  /** The underlying Node server (tests unref it so it never keeps the process alive). */
  server: Server
  close(): Promise<void>
}

/** `services` null = no auth, limits or cache (the benchmark's baseline only). */
export async function startServer(config: ServerConfig, services: AccessServices | null): Promise<RunningServer> {
  const started = Date.now()
  const snapshots = await CurrentSnapshot.open(config.snapshotsDir)
  const stopWatching = snapshots.watch(config.snapshotPollSeconds)
  const lookups = config.lookupsDir === null ? undefined : new LookupRecorder(config.lookupsDir)
  const app = createApp({ ...config, snapshots, access: services?.access, cache: services?.cache, lookups })
  const listener = await listen(toNodeHandler(app), {
    port: config.port,
    hostname: config.host,
    showURL: false,
    autoClose: false,
  })
  log.info('server.ready', {
    url: listener.url,
    snapshot_id: snapshots.current.id,
    ready_ms: Date.now() - started,
    real_status: config.realStatus,
    access: services ? 'on' : 'off',
    lookups_dir: config.lookupsDir,
  })
  return {
    url: listener.url,
    snapshots,
    server: listener.server as Server,
    async close() {
      stopWatching()
      await listener.close()
      await lookups?.close()
    },
  }
}
