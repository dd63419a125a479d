/**
 * The API on Redis when Redis fails: a paused Redis (SIGSTOP) and a stopped one answer `server_error` within about a
 * second, admitting nothing uncounted (the quota fails closed), and requests succeed again on their own once Redis is
 * back; nothing but JSON log lines reaches stderr meanwhile. A real redis-server of this suite's own, on a fixed
 * port, restarted on the same data.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import net from 'node:net'
import path from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createServices, type AccessServices } from '../server/access/index.ts'
import { startServer, type RunningServer } from '../server/main.ts'
import { stderrOf } from './_capture.ts'
import { tempDir } from './_fixtures.ts'
import { setup } from './_setup.ts'

const Faults = suite('redis faults')

/** A redis-server on `port` keeping its data in `dir` (append-only file: a restart finds the accounts again). */
function redisServer(port: number, dir: string): ChildProcess {
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'],
    { stdio: 'ignore' },
  )
  process.once('exit', () => server.kill('SIGKILL'))
  return server
}

async function freePort(): Promise<number> {
  const probe = net.createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as net.AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(true)).on('error', () => resolve(false))
      socket.unref()
      setTimeout(() => socket.destroy(), 200)
    })
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`redis-server did not open port ${port}`)
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())))

interface Context {
  port: number
  dir: string
  redis: ChildProcess
  services: AccessServices
  server: RunningServer
  key: string
}

const ctx = {} as Context

Faults.before(async () => {
  const { config } = await setup()
  ctx.port = await freePort()
  ctx.dir = tempDir('redis-faults')
  ctx.redis = redisServer(ctx.port, ctx.dir)
  await waitForPort(ctx.port)
  ctx.services = await createServices({ driver: 'redis', redisUrl: `redis://127.0.0.1:${ctx.port}`, dataDir: path.join(ctx.dir, 'data') })
  const account = await ctx.services.admin.createAccount({ monthlyQuota: 1_000_000, rate: '1000000/minute' })
  ctx.key = (await ctx.services.admin.createKey(account.userId, 'faults')).key
  // a server on the shared snapshot whose access services are on this Redis
  ctx.server = await startServer({ ...config, lookupsDir: null }, ctx.services)
  ctx.server.server.unref()
})

Faults.after(async () => {
  await ctx.server?.close()
  ctx.redis?.kill('SIGCONT')
  ctx.redis?.kill('SIGTERM')
  if (ctx.redis) await exited(ctx.redis)
  await ctx.services?.close().catch(() => undefined)
})

/** One request (a cached operation, a different query each time) and how long it took. */
let calls = 0
async function timedGet(operation = 'get_categories'): Promise<{ code: string; ms: number }> {
  const started = Date.now()
  const res = await fetch(`${ctx.server.url}api/v1/${operation}?page=${++calls}`, { headers: { 'x-api-key': ctx.key } })
  const body = (await res.json()) as { success: boolean; error?: { code: string } }
  return { code: body.success === false ? body.error!.code : 'ok', ms: Date.now() - started }
}

/** Polls until a request succeeds; how long that took. */
async function recovery(): Promise<number> {
  const started = Date.now()
  while (Date.now() - started < 15_000) {
    if ((await timedGet()).code === 'ok') return Date.now() - started
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('requests did not succeed again within 15 s of Redis coming back')
}

function assertJsonLines(stderr: string): void {
  for (const line of stderr.split('\n').filter((l) => l.trim() !== '')) {
    assert.not.throws(() => JSON.parse(line), `a line on stderr that is not JSON: ${line}`)
    assert.not.match(line, /Unhandled error event|\n\s+at /)
  }
}

Faults('paused :: a paused Redis answers server_error within about a second, the quota failing closed; then recovers on its own', async () => {
  assert.is((await timedGet()).code, 'ok')
  const stderr = await stderrOf(async () => {
    ctx.redis.kill('SIGSTOP')
    try {
      for (const operation of ['get_categories', 'limits']) {
        const { code, ms } = await timedGet(operation)
        assert.is(code, 'server_error', operation)
        assert.ok(ms < 2500, `${operation}: answered in ${ms} ms`)
      }
    } finally {
      ctx.redis.kill('SIGCONT')
    }
    assert.ok((await recovery()) < 5000)
  })
  assertJsonLines(stderr)
})

Faults('paused :: requests that keep arriving while Redis is paused each answer server_error within about a second', async () => {
  assert.is((await timedGet()).code, 'ok')
  const stderr = await stderrOf(async () => {
    ctx.redis.kill('SIGSTOP')
    try {
      const answers: Promise<{ code: string; ms: number }>[] = []
      for (let i = 0; i < 12; i++) {
        answers.push(timedGet(i % 2 ? 'get_categories' : 'limits'))
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      for (const { code, ms } of await Promise.all(answers)) {
        assert.is(code, 'server_error')
        assert.ok(ms < 1600, `answered in ${ms} ms`)
      }
    } finally {
      ctx.redis.kill('SIGCONT')
    }
    assert.ok((await recovery()) < 5000)
  })
  assertJsonLines(stderr)
  // the same failure of every request is logged 5 times per kind and 10 s, then counted: not a line per request
  for (const event of ['request.unexpected_error', 'cache.get_failed']) {
    const lines = stderr.split('\n').filter((line) => line.includes(`"event":"${event}"`))
    assert.ok(lines.length <= 6, `${lines.length} ${event} lines for 12 failed requests:\n${lines.join('\n')}`)
  }
})

Faults('stopped :: a stopped Redis answers server_error at once; requests succeed again once it is back on its port', async () => {
  const stderr = await stderrOf(async () => {
    ctx.redis.kill('SIGTERM')
    await exited(ctx.redis)
    for (let i = 0; i < 3; i++) {
      const { code, ms } = await timedGet()
      assert.is(code, 'server_error')
      assert.ok(ms < 2500, `answered in ${ms} ms`)
    }
    ctx.redis = redisServer(ctx.port, ctx.dir)
    await waitForPort(ctx.port)
    assert.ok((await recovery()) < 10_000)
  })
  assertJsonLines(stderr)
})

Faults.run()
