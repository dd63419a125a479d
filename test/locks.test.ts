/** The operator's lock files (`server/access/internal/locks.ts`): one holder at a time; a dead holder's lock is taken over. */
import fs from 'node:fs'
import path from 'node:path'
import * as assert from 'uvu/assert'
import { suite } from 'uvu'
import { LOCK_STALE_MS, withFileLock } from '../server/access/internal/locks.ts'
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

test('file lock :: released when the change throws; a dead holder’s old lock is taken over', async () => {
  const file = path.join(tempDir('locks'), 'next-user-id.lock')
  await withFileLock(file, async () => {
    throw new Error('edit failed')
  }).catch((error: Error) => assert.is(error.message, 'edit failed'))
  assert.not.ok(fs.existsSync(file))
  fs.writeFileSync(file, JSON.stringify({ pid: 999999, at: 'long ago' }))
  const past = (Date.now() - LOCK_STALE_MS - 1000) / 1000
  fs.utimesSync(file, past, past)
  const started = Date.now()
  assert.is(await withFileLock(file, async () => 'taken'), 'taken')
  assert.ok(Date.now() - started < 2000)
})

test.run()
