/**
 * The build lock (`snapshots/.build.lock`, pipeline/process-lock.ts): a running build's lock refuses a second build; the
 * lock of a build that is gone is taken over, whether its pid is free, names a zombie, or names another process
 * started since (a pid reused after a restart).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { acquireBuildLock, BuildLockedError } from '../pipeline/publish.ts'
import { takeOverLock } from '../pipeline/process-lock.ts'
import { tempDir } from './_fixtures.ts'

const PUBLISH = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'pipeline', 'publish.ts')

/** The first line a child process prints. */
async function firstLine(child: ChildProcess): Promise<string> {
  let out = ''
  for await (const chunk of child.stdout!) {
    out += chunk
    if (out.includes('\n')) return out.split('\n')[0]
  }
  throw new Error('the child printed nothing')
}

function assertLocked(dir: string, pid: number) {
  try {
    acquireBuildLock(dir)
    assert.unreachable('the lock must be refused')
  } catch (error) {
    assert.instance(error, BuildLockedError)
    assert.match((error as Error).message, `another build (pid ${pid}) is running`)
  }
}

test('build lock :: held by a running build, refused; once that process is killed, taken over', async () => {
  const dir = tempDir('lock-held')
  const code = `import { acquireBuildLock } from ${JSON.stringify(PUBLISH)}
    acquireBuildLock(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000)`
  const holder = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    assert.is(await firstLine(holder), 'locked')
    assertLocked(dir, holder.pid!)
  } finally {
    holder.kill('SIGKILL')
    await once(holder, 'exit')
  }
  acquireBuildLock(dir)()
})

test('build lock :: a pid that names another process than the one that locked (reused) is taken over', () => {
  const dir = tempDir('lock-reused')
  // this process runs, but it is not the one that took the lock: that one started at another time
  fs.writeFileSync(path.join(dir, '.build.lock'), JSON.stringify({ pid: process.ppid, started: 'another-boot:12345' }))
  const release = acquireBuildLock(dir)
  assert.is(JSON.parse(fs.readFileSync(path.join(dir, '.build.lock'), 'utf8')).pid, process.pid)
  release()
  assert.not.ok(fs.existsSync(path.join(dir, '.build.lock')))
})

test('build lock :: two builds that judge one dead lock: the second leaves the lock the first has taken since', async () => {
  const dir = tempDir('lock-race')
  const lock = path.join(dir, '.build.lock')
  const dead = JSON.stringify({ pid: 2 ** 22 + 7, started: 'a-boot:1' })
  fs.writeFileSync(lock, dead)
  // the first build takes the dead lock over and runs; the second read the dead lock before that and takes it over now
  const code = `import { acquireBuildLock } from ${JSON.stringify(PUBLISH)}
    acquireBuildLock(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000)`
  const first = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    assert.is(await firstLine(first), 'locked')
    takeOverLock(lock, dead, JSON.stringify({ pid: process.pid, started: null }))
    assert.is(JSON.parse(fs.readFileSync(lock, 'utf8')).pid, first.pid)
    assertLocked(dir, first.pid!)
    assert.equal(fs.readdirSync(dir), ['.build.lock'])
  } finally {
    first.kill('SIGKILL')
    await once(first, 'exit')
  }
})

test('build lock :: a takeover under way in a live build refuses this one; a guard left by a dead build is removed', async () => {
  const dir = tempDir('lock-guard')
  const lock = path.join(dir, '.build.lock')
  fs.writeFileSync(lock, JSON.stringify({ pid: 2 ** 22 + 7, started: 'a-boot:1' }))
  // a live process (this test's parent) is taking the dead lock over
  fs.writeFileSync(`${lock}.takeover`, String(process.ppid))
  try {
    acquireBuildLock(dir)
    assert.unreachable('the lock must be refused')
  } catch (error) {
    assert.instance(error, BuildLockedError)
  }
  // the guard of a build that died mid-takeover
  fs.writeFileSync(`${lock}.takeover`, String(2 ** 22 + 9))
  acquireBuildLock(dir)()
  assert.equal(fs.readdirSync(dir), [])
})

test('build lock :: a build releases its own lock only, not one another build has taken over since', () => {
  const dir = tempDir('lock-release')
  const release = acquireBuildLock(dir)
  const other = JSON.stringify({ pid: process.ppid, started: null })
  fs.writeFileSync(path.join(dir, '.build.lock'), other)
  release()
  assert.is(fs.readFileSync(path.join(dir, '.build.lock'), 'utf8'), other)
})

test('build lock :: the pid of a zombie (a build that ended, not reaped by its parent) is taken over', async () => {
  const dir = tempDir('lock-zombie')
  // the shell's child ends once `sleep 30` has replaced the shell (which could reap it before), and is never reaped:
  // that `sleep` does not wait for children
  const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    const zombie = Number(await firstLine(parent))
    let state = ''
    for (let i = 0; i < 200 && state !== 'Z'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      const stat = fs.readFileSync(`/proc/${zombie}/stat`, 'utf8')
      state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
    }
    assert.is(state, 'Z', 'the child is a zombie')
    // with the pid alone, as where the OS does not tell when a process started: the zombie is still told apart
    fs.writeFileSync(path.join(dir, '.build.lock'), String(zombie))
    acquireBuildLock(dir)()
  } finally {
    parent.kill('SIGKILL')
    await once(parent, 'exit')
  }
})

test('build lock :: a lock holding a pid alone (an earlier version\'s) is refused while that pid runs', () => {
  const dir = tempDir('lock-pid-alone')
  fs.writeFileSync(path.join(dir, '.build.lock'), String(process.ppid))
  assertLocked(dir, process.ppid)
  fs.writeFileSync(path.join(dir, '.build.lock'), String(2 ** 22 + 7))
  acquireBuildLock(dir)()
})

test.run()
