/**
 * Has V8 optimize Node's `process.nextTick` before the server holds its snapshot, with the feedback of its common
 * calls (a callback alone, a callback with one argument).
 *
 * Every request goes through `nextTick` several times. Its tick object is an object literal with two computed
 * (symbol) keys; how V8 builds it in optimized code depends, as traced, on when it optimizes the function. In
 * servers holding much memory in many objects (a full response cache: 40,000 bodies), V8 optimized it, in 10 of 12
 * fresh servers measured, into code that builds each tick object through its runtime
 * (`Runtime_DefineKeyedOwnPropertyInLiteral`, `JSObject::MigrateToMap`) for the process's life: ~4 µs more CPU on
 * every request (~15%). With this warm-up first, 6 of 6 were not. See docs/api.md, "Eleventh session".
 *
 * @example await warmNextTick() // ~200,000 ticks, tens of milliseconds
 */
export async function warmNextTick(rounds = 200, ticksPerRound = 1000): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    await new Promise<void>((done) => {
      let left = ticksPerRound
      const tick = (_argument?: number) => {
        if (--left === 0) done()
      }
      for (let i = 0; i < ticksPerRound; i++) {
        if (i % 2 === 0) process.nextTick(tick)
        else process.nextTick(tick, i)
      }
    })
  }
}
