/**
 * Start the API: load the current snapshot, watch the pointer, open the access services and listen with listhen.
 * Used by `npm run serve`, `npm start`, the tests and the benchmark.
 *
 * @example const server = await startServer(serverConfigFromEnv()); server.url // 'http://127.0.0.1:3000/'
 */
import { STATUS_CODES, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { H3, toNodeHandler } from 'h3'
import { listen, type Listener } from 'listhen'
import { flushFoldedLogs, log } from '../log/logger.ts'
import type { AccessServices } from './access/index.ts'
import { createApp, JSON_TYPE, metricsBody } from './app.ts'
import type { ServerConfig } from './config.ts'
import { errorBody } from './errors.ts'
import { asciiJson } from './json.ts'
import { LookupRecorder } from './lookups.ts'
import { createMetrics, type Metrics } from './metrics.ts'
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
  const metrics =
    config.metricsAt.mode === 'off' ? undefined : createMetrics({ snapshot: () => snapshots.current, snapshotsDir: config.snapshotsDir })
  const app = createApp({
    ...config,
    snapshots,
    access: services?.access,
    cache: services?.cache,
    lookups,
    metrics,
    metricsRoute: config.metricsAt.mode === 'app',
  })
  let listener: Listener | undefined
  let metricsListener: Listener | null = null
  const close = async () => {
    stopWatching()
    await listener?.close()
    await metricsListener?.close()
    await lookups?.close()
    flushFoldedLogs()
  }
  try {
    listener = await listenOn(app, config.port, config.host)
    answerClientErrors(listener.server as Server, config.realStatus)
    if (metrics && config.metricsAt.mode === 'listener') metricsListener = await listenMetrics(metrics, config.metricsAt)
  } catch (error) {
    // a port in use (either listener): nothing stays open
    await close()
    throw error
  }
  log.info('server.ready', {
    url: listener.url,
    snapshot_id: snapshots.current.id,
    ready_ms: Date.now() - started,
    real_status: config.realStatus,
    access: services ? 'on' : 'off',
    lookups_dir: config.lookupsDir,
    metrics: metricsListener ? metricsListener.url : config.metricsAt.mode,
  })
  return { url: listener.url, snapshots, server: listener.server as Server, close }
}

/** A request Node's HTTP parser refuses (URL and headers over 16 KB, a malformed request line) gets the error body too. */
function answerClientErrors(server: Server, realStatus: boolean): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return
    // a request that never completed: close (a response of an earlier request may still be on its way)
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return void socket.destroy()
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW'
    const body = asciiJson(errorBody('invalid_params', tooLarge ? 'Request too large: the URL and headers must fit in 16 KB' : 'Malformed HTTP request'))
    const status = realStatus ? (tooLarge ? 431 : 400) : 200
    const head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: ${JSON_TYPE}\r\n`
    socket.end(`${head}content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`)
  })
}

/** `/metrics` alone on its own host and port (`METRICS_HOST`, `METRICS_PORT`). */
function listenMetrics(metrics: Metrics, { port, host }: ServerConfig['metricsAt']) {
  return listenOn(new H3().get('/metrics', (event) => metricsBody(metrics, event)), port, host)
}

/**
 * Listen with listhen, without its banner and without `autoClose` (it would exit on SIGHUP, which reloads the
 * snapshot). A port in use fails the start: listhen would otherwise move to a free port of 3000–3100 or a random one.
 * Port 0 is any free port.
 */
function listenOn(app: H3, port: number, hostname: string) {
  const only = port === 0 ? { port } : { port, alternativePortRange: [port, port] as [number, number], random: false, verbose: false }
  return listen(toNodeHandler(app), { port: only, hostname, showURL: false, autoClose: false })
}
