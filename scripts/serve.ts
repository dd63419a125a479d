/**
 * `npm run serve`: answer the API from `<SNAPSHOTS_DIR>/current` (see server/config.ts and the access settings
 * STORAGE_DRIVER, DATA_DIR, REDIS_URL). Stops cleanly on SIGINT/SIGTERM; SIGHUP re-checks the snapshot pointer.
 */
import { log } from '../log/logger.ts'
import { createServices, storageConfigFromEnv, type AccessServices } from '../server/access/index.ts'
import { serverConfigFromEnv } from '../server/config.ts'
import { startServer } from '../server/main.ts'

/** Serve until a stop signal; `services` defaults to the storage configured in the environment. */
export async function serve(services?: AccessServices): Promise<void> {
  services ??= await createServices(storageConfigFromEnv())
  const server = await startServer(serverConfigFromEnv(), services)
  let stopping = false
  const stop = async (signal: string) => {
    // a second signal while stopping (a double Ctrl-C) must not end the process before the counts are saved
    if (stopping) return
    stopping = true
    log.info('server.stopping', { signal })
    await server.close()
    try {
      await services!.close()
    } catch (error) {
      // the counts could not be saved: a supervisor sees it in the exit code
      log.error('server.stop_failed', { error: error instanceof Error ? error.message : String(error) })
      process.exit(1)
    }
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

if (import.meta.url === `file://${process.argv[1]}`) {
  serve().catch((error) => {
    log.error('server.failed', { error: error instanceof Error ? error.message : String(error) })
    process.exit(1)
  })
}
