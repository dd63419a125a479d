/**
 * `npm run serve`: answer the API from `<SNAPSHOTS_DIR>/current` (see server/config.ts and the access settings
 * STORAGE_DRIVER, DATA_DIR, REDIS_URL). Stops cleanly on SIGINT/SIGTERM; SIGHUP re-checks the snapshot pointer.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { log } from '../log/logger.ts'
import { acquireProcessLock, LockHeldError } from '../pipeline/process-lock.ts'
import { createServices, storageConfigFromEnv, type AccessServices } from '../server/access/index.ts'
import { serverConfigFromEnv } from '../server/config.ts'
import { startServer } from '../server/main.ts'

/** Serve until a stop signal; `services` defaults to the storage configured in the environment. */
export async function serve(services?: AccessServices): Promise<void> {
  const storage = storageConfigFromEnv()
  // the embedded store's counters belong to one process: a second server on its DATA_DIR is refused
  const unlock = storage.driver === 'embedded' ? lockDataDir(storage.dataDir) : () => undefined
  let server: Awaited<ReturnType<typeof startServer>>
  try {
    services ??= await createServices(storage)
    server = await startServer(serverConfigFromEnv(), services)
  } catch (error) {
    unlock()
    throw error
  }
  let stopping = false
  const stop = async (signal: string) => {
    // a second signal while stopping (a double Ctrl-C) must not end the process before the counts are saved
    if (stopping) return
    stopping = true
    log.info('server.stopping', { signal })
    await server.close()
    let code = 0
    try {
      await services!.close()
    } catch (error) {
      // the counts could not be saved: a supervisor sees it in the exit code
      log.error('server.stop_failed', { error: error instanceof Error ? error.message : String(error) })
      code = 1
    }
    unlock()
    process.exit(code)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

/** The embedded store's server lock (`DATA_DIR/server.lock`); refused while another live server holds it. */
function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true })
  try {
    return acquireProcessLock(path.join(dataDir, 'server.lock'), 'server')
  } catch (error) {
    if (!(error instanceof LockHeldError)) throw error
    throw new Error(`${error.message}: the embedded store's counters belong to one server process (run several on Redis)`)
  }
}

/** Whether this file is the command being run (not imported by `npm start`): real paths, through any symlink or space. */
function isCommand(): boolean {
  try {
    return fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url))
  } catch {
    // no such file (`tsx scripts/start` without its extension, `node -e`): not this file
    return false
  }
}

if (isCommand()) {
  serve().catch((error) => {
    log.error('server.failed', { error: error instanceof Error ? error.message : String(error) })
    process.exit(1)
  })
}
