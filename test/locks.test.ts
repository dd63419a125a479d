/** The operator's lock files (`server/access/stores/locks.ts`): one holder at a time; a dead holder's lock is taken over. */
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

test('file lock :: released when the change throws; a stale lock is taken over, a fresh one is waited for', async () => {
  const folder = tempDir('locks')
  const file = path.join(folder, 'next-user-id.lock')
  await withFileLock(file, async () => {
    throw new Error('edit failed')
  }).catch((error: Error) => assert.is(error.message, 'edit failed'))
  assert.not.ok(fs.existsSync(file))
  // what a holder that died left behind, not refreshed for longer than the stale age: taken over
  fs.mkdirSync(file)
  const past = (Date.now() - LOCK_STALE_MS - 1000) / 1000
  fs.utimesSync(file, past, past)
  const started = Date.now()
  assert.is(await withFileLock(file, async () => 'taken'), 'taken')
  assert.ok(Date.now() - started < 2000)
  assert.not.ok(fs.existsSync(file))
  // a fresh lock of another holder: waited for until it goes
  fs.mkdirSync(file)
  let ran = false
  const waiting = withFileLock(file, async () => (ran = true))
  await new Promise((resolve) => setTimeout(resolve, 200))
  assert.not.ok(ran, 'a live holder’s fresh lock is waited for')
  fs.rmdirSync(file)
  await waiting
  assert.ok(ran)
})

test.run()
