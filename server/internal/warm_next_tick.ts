/**
 * Has V8 optimize Node's `process.nextTick` (and the loop that runs its ticks) before the server holds its snapshot,
 * with the feedback of every call it will see, and keeps its tick objects' shape alive for the process's life.
 *
 * Every request goes through `nextTick` several times. Its tick object is an object literal with two computed
 * (symbol) keys; how V8 builds it in optimized code depends on the feedback it has when it optimizes the function.
 * Optimized with that feedback missing (cleared by a garbage collection, or never gathered), it builds each tick
 * object through V8's runtime (`Runtime_DefineKeyedOwnPropertyInLiteral`, `JSObject::MigrateToMap`) for the
 * process's life: ~4 µs more CPU on every request (~15%). Two ways there:
 * - Traced (`--trace-opt --trace-deopt`): Node's own calls pass the callback with up to four arguments, objects
 *   mostly. A warm-up that passed at most one, a number, had `nextTick` deoptimized by the first requests
 *   ("insufficient type feedback for generic keyed access") and `processTicksAndRejections` too ("wrong map"), and
 *   both optimized again at some point of the server's life, with whatever feedback was there then: servers fell
 *   into the slow state midway through a benchmark. The calls below cover every arity `nextTick` handles apart
 *   (none to four arguments, and more).
 * - Feedback and optimized code hold hidden classes weakly: the traces show optimized code thrown away when the
 *   classes it was made for died in a collection ("weak objects"). A tick object lives only until its tick runs,
 *   so a collection when none is queued can let its classes die. One tick object of each kind made here is kept,
 *   so they stay alive.
 * See docs/api.md ("Eleventh session" and "Fourteenth session").
 *
 * @example await warmNextTick() // ~200,000 ticks, tens of milliseconds
 */
import { createHook } from 'node:async_hooks'

/** Tick objects kept for the process's life (their hidden classes with them). */
const kept: object[] = []

export async function warmNextTick(rounds = 200, ticksPerRound = 1200): Promise<void> {
  keepTickShapes()
  const stream = { readable: true }
  const state = { length: 0, ended: false }
  const callback = () => {}
  // every arity nextTick handles apart: none to four arguments (Node's streams pass a stream, its state, a count,
  // a callback), and more
  const argumentLists: unknown[][] = [
    [],
    [stream],
    [stream, state],
    [stream, state, 1],
    [stream, state, 1, callback],
    [stream, state, 1, callback, true],
  ]
  for (let round = 0; round < rounds; round++) {
    // each round from a macrotask, so the loop that runs the ticks also drains its queue and returns, as it does
    // between requests (else its closing calls have no feedback when it is optimized)
    await new Promise<void>((resolve) => setImmediate(resolve))
    await new Promise<void>((done) => {
      let left = ticksPerRound
      const ticked = () => {
        if (--left === 0) done()
      }
      // distinct functions, as Node's are: a call site that saw one target would be optimized for it alone
      const callbacks = [
        () => ticked(),
        () => ticked(),
        () => ticked(),
        () => ticked(),
        () => ticked(),
        () => ticked(),
        () => ticked(),
      ]
      for (let i = 0; i < ticksPerRound; i++) {
        process.nextTick(callbacks[i % callbacks.length], ...argumentLists[i % argumentLists.length])
      }
    })
  }
}

/** Catches the tick objects of one `nextTick` call of each kind (without and with arguments) while a hook is on. */
function keepTickShapes(): void {
  if (kept.length > 0) return
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') kept.push(resource)
    },
  })
  hook.enable()
  process.nextTick(() => {})
  process.nextTick(() => {}, kept)
  hook.disable()
}
