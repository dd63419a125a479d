/** Parallel work in a build (pipeline/fan-out.ts): every task settles before a failure is thrown, none is lost. */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { settleAll } from '../pipeline/fan-out.ts'
import { stderrOf } from './_capture.ts'

const FanOut = suite('fan-out')

const after = <T>(ms: number, value: () => T): Promise<T> => new Promise((resolve) => setTimeout(resolve, ms)).then(value)

FanOut('settleAll :: the values in order when every task succeeds', async () => {
  assert.equal(await settleAll([after(20, () => 'slow'), after(1, () => 2)]), ['slow', 2])
})

FanOut('settleAll :: waits for every task, throws the first failure in order and logs the others', async () => {
  let finished = false
  const tasks = [
    after(1, () => {
      throw new Error('disk full: parquet')
    }),
    after(30, () => (finished = true)),
    after(5, () => {
      throw new Error('disk full: serving')
    }),
  ] as const
  let thrown: unknown
  const logged = await stderrOf(async () => {
    thrown = await settleAll(tasks).catch((error: unknown) => error)
  })
  assert.ok(finished, 'the slow task had settled when the failure was thrown')
  assert.is((thrown as Error).message, 'disk full: parquet')
  const lines = logged.split('\n').filter(Boolean).map((line) => JSON.parse(line))
  assert.equal(lines.map((l) => [l.event, l.error.message]), [['fan_out.also_failed', 'disk full: serving']])
})

FanOut.run()
