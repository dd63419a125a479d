/**
 * A real Redis for the Redis-backed suites: a database of its own on the server `.ci/run` started
 * (`TEST_REDIS_URL`), emptied before and after use; without that variable, a throwaway `redis-server` of its own on
 * a free loopback port, without persistence.
 * @example const redis = await startRedis(); ... redis.url ...; await redis.stop()
 */
import { spawn, spawnSync } from 'node:child_process'
import net from 'node:net'
import Redis from 'ioredis'

export interface RedisServer {
  url: string
  stop(): Promise<void>
}

export async function startRedis(): Promise<RedisServer> {
  const shared = process.env.TEST_REDIS_URL
  if (shared) return sharedDatabase(shared)
  if (spawnSync('redis-server', ['--version']).error) {
    throw new Error('redis-server not found: apt-get install -y redis-server')
  }
  const port = await freePort()
  const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  })
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()))
  const killOnExit = () => server.kill('SIGKILL')
  process.once('exit', killOnExit)
  await waitForPong(port).catch((error) => {
    killOnExit()
    throw error
  })
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      process.off('exit', killOnExit)
      if (server.exitCode === null) server.kill('SIGTERM')
      await exited
    },
  }
}

/** Databases 1–15 of the shared server, one per suite in turn (a suite empties its own before and after use). */
let nextDatabase = 0

async function sharedDatabase(serverUrl: string): Promise<RedisServer> {
  const url = `${serverUrl.replace(/\/\d*$/, '')}/${1 + (nextDatabase++ % 15)}`
  const flush = async () => {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 50 })
    try {
      await client.connect()
      await client.flushdb()
    } finally {
      client.disconnect()
    }
  }
  await flush()
  return { url, stop: flush }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
    probe.on('error', reject)
  })
}

async function waitForPong(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await ping(port)) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`redis-server did not answer PING on port ${port} within ${timeoutMs} ms`)
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.setTimeout(500)
    socket.once('connect', () => socket.write('PING\r\n'))
    socket.once('data', (data) => {
      socket.destroy()
      resolve(data.toString().startsWith('+PONG'))
    })
    socket.once('error', () => resolve(false))
    socket.once('timeout', () => {
      socket.destroy()
      resolve(false)
    })
  })
}
