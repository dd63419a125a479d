/**
 * A real, throwaway `redis-server` on a free loopback port, without persistence, for the Redis-backed suites.
 * @example const redis = await startRedis(); ... redis.url ...; await redis.stop()
 */
import { spawn, spawnSync } from 'node:child_process'
import net from 'node:net'

export interface RedisServer {
  url: string
  stop(): Promise<void>
}

export async function startRedis(): Promise<RedisServer> {
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
