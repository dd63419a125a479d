/**
 * Access state that outlives a process: the embedded store's counters after a crash and across restarts, and server
 * processes scaled out on one real redis-server.
 */
import { spawn } from 'node:child_process'
import http from 'node:http'
import fs from 'node:fs'
import path from 'node:path'
import Redis from 'ioredis'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createServices, type AccessServices } from '../server/access/index.ts'
import { openEmbeddedBackend } from '../server/access/stores/embedded.ts'
import { outcomeOf } from './_capture.ts'
import { setup } from './_setup.ts'
import { credentials, embeddedStore, outcome, redisStore, sleep, tempDir, type Store } from './_access.ts'

const embedded = suite('access [embedded] persistence')

embedded('crash :: counted calls reach the disk without close (a flush every second)', async () => {
  const store = embeddedStore()
  const running = await createServices(store.config())
  const { userId } = await running.admin.createAccount({})
  const { key } = await running.admin.createKey(userId, 'main')
  for (let i = 0; i < 6; i++) await running.access.admit(credentials({ header: key }), 'api-get-alpha')
  // what a process started after a crash reads, until the next flush has written them (a loaded machine runs the
  // one-second timer late: up to 10 s)
  const readAfterCrash = async () => {
    const afterCrash = await createServices(store.config())
    const { used } = (await afterCrash.admin.usage(userId)).quota
    await afterCrash.close()
    return used
  }
  let used = 0
  for (const deadline = Date.now() + 10_000; used !== 6 && Date.now() < deadline; ) {
    await sleep(250)
    used = await readAfterCrash()
  }
  assert.is(used, 6)
  await running.close()
})

embedded('files :: every write is a temp file renamed into place: none left over, every file parses', async () => {
  const store = embeddedStore()
  const services = await createServices(store.config())
  const { userId } = await services.admin.createAccount({})
  const { key } = await services.admin.createKey(userId, 'main')
  await Promise.all(Array.from({ length: 200 }, () => services.access.admit(credentials({ header: key }), 'api-limits')))
  await services.admin.setPlan(userId, { rate: '500/minute' })
  await services.close()
  const dir = store.config().dataDir
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => fs.statSync(path.join(dir, f)).isFile())
  assert.ok(files.includes('counters.json') && files.includes(`access/accounts/${userId}`))
  assert.not.ok(files.some((file) => file.endsWith('.tmp')))
  for (const file of files) JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))
  const counters = JSON.parse(fs.readFileSync(path.join(dir, 'counters.json'), 'utf8'))
  assert.is(counters[`quota:${userId}`].count, 200)
})

embedded('unreadable record :: a failed read fails the requests of that moment and is never kept as the account', async () => {
  const store = embeddedStore()
  const writer = await createServices(store.config())
  const { userId } = await writer.admin.createAccount({})
  const { key } = await writer.admin.createKey(userId, 'main')
  await writer.close()
  // a symlink to itself: reading it fails with ELOOP, which unstorage's fs driver returns as the item's value
  const record = path.join(store.config().dataDir, 'access', 'accounts', String(userId))
  const saved = fs.readFileSync(record)
  fs.rmSync(record)
  fs.symlinkSync(record, record)
  const services = await createServices(store.config())
  const failed = await Promise.allSettled(Array.from({ length: 50 }, () => services.access.admit(credentials({ header: key }), 'api-limits')))
  for (const outcome of failed) {
    assert.is(outcome.status, 'rejected')
    assert.match(String((outcome as PromiseRejectedResult).reason), `storage item access:accounts:${userId} could not be read`)
  }
  fs.rmSync(record)
  fs.writeFileSync(record, saved)
  const admitted = await Promise.all(Array.from({ length: 200 }, () => services.access.admit(credentials({ header: key }), 'api-limits')))
  assert.ok(admitted.every((admission) => admission.userId === userId))
  assert.is((await services.admin.usage(userId)).quota.used, 200)
  await services.close()
})

embedded('unreadable counters :: the store refuses to open rather than start from zero and overwrite the saved counts', async () => {
  const store = embeddedStore()
  const dataDir = store.config().dataDir
  fs.mkdirSync(dataDir, { recursive: true })
  const counters = path.join(dataDir, 'counters.json')
  fs.symlinkSync(counters, counters)
  const opened = await createServices(store.config()).then(
    (services) => services.close().then(() => 'opened'),
    (error: Error) => error.message,
  )
  assert.match(opened, /counters\.json in the data directory could not be read/)
  assert.ok(fs.lstatSync(counters).isSymbolicLink())
})

embedded('invalid counters :: a count that is not a whole number or a window that never ends stops the store from opening', async () => {
  for (const window of [{ count: 'x', expiresAt: Date.now() + 1000 }, { count: 1, expiresAt: 9999999999999 }, { count: -1, expiresAt: Date.now() + 1000 }]) {
    const store = embeddedStore()
    const dataDir = store.config().dataDir
    fs.mkdirSync(dataDir, { recursive: true })
    fs.writeFileSync(path.join(dataDir, 'counters.json'), JSON.stringify({ 'quota:1': window }))
    const opened = await createServices(store.config()).then(
      (services) => services.close().then(() => 'opened'),
      (error: Error) => error.message,
    )
    assert.match(opened, /counters\.json in the data directory holds an invalid window quota:1/, JSON.stringify(window))
  }
})

/** A server process on an embedded store holding one account and its key. */
async function serverWithKey() {
  const store = embeddedStore()
  const services = await createServices(store.config())
  const { userId } = await services.admin.createAccount({})
  const { key } = await services.admin.createKey(userId, 'main')
  await services.close()
  const { snapshotsDir } = await setup()
  const dataDir = store.config().dataDir
  const server = await startServerProcess({ STORAGE_DRIVER: 'embedded', DATA_DIR: dataDir, SNAPSHOTS_DIR: snapshotsDir })
  return { store, userId, key, dataDir, server }
}

embedded('stop :: a second SIGINT while the server stops (a double Ctrl-C) still lets it save the counts and exit 0', async () => {
  const { store, userId, key, server } = await serverWithKey()
  for (let page = 1; page <= 5; page++) await fetch(`${server.url}api/v1/get_categories?page=${page}`, { headers: { 'x-api-key': key } })
  await server.stop(['SIGINT', 'SIGINT'])
  const after = await createServices(store.config())
  assert.is((await after.admin.usage(userId)).quota.used, 5)
  await after.close()
})

embedded('stop :: counts that cannot be saved at the stop fail it (exit code 1, server.stop_failed), not lost in silence', async () => {
  const { key, dataDir, server } = await serverWithKey()
  // counters.json cannot be replaced any more (a directory in its place: a failed write, even for root)
  fs.rmSync(path.join(dataDir, 'counters.json'), { force: true })
  fs.mkdirSync(path.join(dataDir, 'counters.json'))
  for (let page = 1; page <= 3; page++) await fetch(`${server.url}api/v1/get_categories?page=${page}`, { headers: { 'x-api-key': key } })
  await server.stop(['SIGTERM'], 1)
  assert.match(server.log(), /"event":"server\.stop_failed".*counters\.json in the data directory could not be written/)
})

embedded('one server :: a second server on the same embedded DATA_DIR is refused at once; a killed server\'s lock is taken over', async () => {
  const { dataDir, server } = await serverWithKey()
  const { snapshotsDir } = await setup()
  const env = { STORAGE_DRIVER: 'embedded', DATA_DIR: dataDir, SNAPSHOTS_DIR: snapshotsDir }
  const refused = await startServerProcess(env).then(
    (second) => second.stop().then(() => 'started'),
    (error: Error) => error.message,
  )
  assert.match(refused, /server exited with 1[\s\S]*"server\.failed".*another server \(pid \d+\) is running on .*counters belong to one server process/)
  await server.stop(['SIGKILL'], null)
  const next = await startServerProcess(env)
  await next.stop()
})

embedded('close :: a write that fails while a later one is queued loses nothing: the close saves every count and succeeds', async () => {
  const dir = tempDir('counters-close')
  const backend = await openEmbeddedBackend(dir, 1_000_000)
  // the first write of counters.json fails late (a slow disk error), while the close's own write is already queued
  const write = backend.storage.setItem.bind(backend.storage)
  let writes = 0
  backend.storage.setItem = (async (key: string, value: unknown) => {
    if (++writes === 1) await sleep(300).then(() => Promise.reject(new Error('EIO')))
    return write(key, value as never)
  }) as typeof backend.storage.setItem
  const request = { userId: 1, bucket: 'api-get-alpha', quotaTotal: 100, rateTotal: 100, rateWindowMs: 60_000 }
  await backend.counters.count(request)
  while (writes === 0) await sleep(50)
  await backend.counters.count(request)
  await backend.close()
  assert.is(JSON.parse(fs.readFileSync(path.join(dir, 'counters.json'), 'utf8'))['quota:1'].count, 2)
})

embedded.run()

const scaleOut = suite<{ store: Store & { url: string }; services: AccessServices }>('access [redis] scale-out')

scaleOut.before(async (ctx) => {
  ctx.store = await redisStore()
  ctx.services = await createServices(ctx.store.config())
})
scaleOut.after(async (ctx) => {
  try {
    await ctx.services?.close()
  } finally {
    await ctx.store?.stop()
  }
})

/** A real server process (`scripts/serve.ts`) on the shared Redis, serving the tests' snapshot on a free port. */
async function startServerProcess(env: Record<string, string>): Promise<{ url: string; log: () => string; stop: (signals?: NodeJS.Signals[], code?: number | null) => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOOKUPS_RECORD: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let log = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  // never left running by a failed test
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`server did not start:\n${log}`))
    }, 60_000)
    const ready = () => {
      const line = log.split('\n').find((l) => l.includes('"server.ready"'))
      if (!line) return
      clearTimeout(timer)
      child.stderr.off('data', ready)
      resolve(JSON.parse(line).url)
    }
    child.stderr.on('data', ready)
    exited.then((code) => reject(new Error(`server exited with ${code}:\n${log}`)))
  })
  return {
    url,
    log: () => log,
    async stop(signals = ['SIGTERM'], code: number | null = 0) {
      process.off('exit', killOnExit)
      for (const [i, signal] of signals.entries()) {
        // a signal after the first one lands while the server stops (two at once would be delivered as one)
        while (i > 0 && !log.includes('"server.stopping"') && child.exitCode === null) await sleep(1)
        child.kill(signal)
      }
      assert.is(await exited, code, code === 0 ? 'a graceful stop' : 'a stop that failed')
    },
  }
}

scaleOut('quota :: quota 100 across 3 keys and 2 server processes on one Redis admits exactly 100', async (ctx) => {
  const { admin } = ctx.services
  const { userId } = await admin.createAccount({ monthlyQuota: 100 })
  const keys: string[] = []
  for (const name of ['a', 'b', 'c']) keys.push((await admin.createKey(userId, name)).key)
  const { snapshotsDir } = await setup()
  const env = { STORAGE_DRIVER: 'redis', REDIS_URL: ctx.store.url, SNAPSHOTS_DIR: snapshotsDir, DATA_DIR: tempDir('scale-out') }
  const started = await Promise.allSettled([startServerProcess(env), startServerProcess(env)])
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
  if (servers.length < 2) {
    await Promise.all(servers.map((server) => server.stop()))
    throw started.find((result) => result.status === 'rejected')!.reason
  }
  const agents = servers.map(() => new http.Agent({ keepAlive: true, maxSockets: 8 }))
  try {
    // 200 calls, alternately to each server, 16 in flight (8 per server), round-robin over the keys
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) => outcomeOf(agents[i % 2], `${servers[i % 2].url}api/v1/get_categories`, { 'x-api-key': keys[i % 3] }).then((o) => [i % 2, o] as const)),
    )
    const admitted = (server: number) => outcomes.filter(([s, o]) => s === server && o === 'ok').length
    assert.is(admitted(0) + admitted(1), 100)
    assert.ok(admitted(0) > 0 && admitted(1) > 0, `both servers admitted calls (${admitted(0)} + ${admitted(1)})`)
    assert.ok(outcomes.every(([, o]) => o === 'ok' || o === 'quota_exceeded'))
    assert.is((await admin.usage(userId)).quota.used, 100)
  } finally {
    for (const agent of agents) agent.destroy()
    await Promise.all(servers.map((server) => server.stop()))
  }
  const stored = await ctx.store.dump()
  const logs = servers.map((server) => server.log()).join('')
  assert.match(logs, '"server.ready"')
  for (const key of keys) {
    assert.not.ok(stored.includes(key), 'no raw key in Redis')
    assert.not.ok(logs.includes(key), 'no raw key in the servers’ logs')
  }
})

scaleOut.run()
