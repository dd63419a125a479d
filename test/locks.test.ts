/** The operator's lock files (`server/access/stores/locks.ts`): one holder at a time; a dead holder's lock is taken over. */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import * as assert from 'uvu/assert'
import { suite } from 'uvu'
import { LOCK_STALE_MS, withFileLock } from '../server/access/stores/locks.ts'
import { tempDir } from './_fixtures.ts'

const test = suite('locks')

test('file lock :: holders run one at a time and the file is gone after each', async () => {
  const file = path.join(tempDir('locks'), 'locks', 'account-1.lock')
  let running = 0
  let most = 0
  const order: number[] = []
  await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      withFileLock(file, async () => {
        most = Math.max(most, ++running)
        assert.ok(fs.existsSync(file), 'the lock file exists while held')
        await new Promise((resolve) => setTimeout(resolve, 5))
        order.push(i)
        running--
      }),
    ),
  )
  assert.is(most, 1)
  assert.is(order.length, 8)
  assert.not.ok(fs.existsSync(file))
})

test('file lock :: released when the change throws; a dead holder’s lock is taken over, a live one’s is not', async () => {
  const folder = tempDir('locks')
  const file = path.join(folder, 'next-user-id.lock')
  await withFileLock(file, async () => {
    throw new Error('edit failed')
  }).catch((error: Error) => assert.is(error.message, 'edit failed'))
  assert.not.ok(fs.existsSync(file))
  // a holder whose process is gone: taken over at once
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8', env: {} })
  const pid = Number(gone.stdout)
  assert.ok(pid > 0, `a finished process's pid: ${gone.stdout} ${gone.stderr}`)
  fs.writeFileSync(file, JSON.stringify({ token: 'dead', pid }))
  const started = Date.now()
  assert.is(await withFileLock(file, async () => 'taken'), 'taken')
  assert.ok(Date.now() - started < 2000)
  // a live holder's file, older than the stale age: taken over; a fresh one: waited for, and left alone on release
  fs.writeFileSync(file, JSON.stringify({ token: 'old', pid: process.pid }))
  const past = (Date.now() - LOCK_STALE_MS - 1000) / 1000
  fs.utimesSync(file, past, past)
  assert.is(await withFileLock(file, async () => 'taken'), 'taken')
  fs.writeFileSync(file, JSON.stringify({ token: 'live', pid: process.pid }))
  let ran = false
  const waiting = withFileLock(file, async () => (ran = true))
  await new Promise((resolve) => setTimeout(resolve, 200))
  assert.not.ok(ran, 'a live holder’s fresh lock is waited for')
  fs.rmSync(file)
  await waiting
  assert.ok(ran)
})

test('file lock :: a holder removes only its own lock file', async () => {
  const file = path.join(tempDir('locks'), 'account-2.lock')
  await withFileLock(file, async () => {
    // another holder took the lock over meanwhile (this one ran past the stale age)
    fs.writeFileSync(file, JSON.stringify({ token: 'newer', pid: process.pid }))
  })
  assert.is(JSON.parse(fs.readFileSync(file, 'utf8')).token, 'newer')
})

test.run()
