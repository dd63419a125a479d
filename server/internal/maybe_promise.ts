/**
 * Values that are at hand now or later. The embedded store answers from this process, so a request that only
 * needs it runs start to end without a microtask; the Redis store answers with promises, and the same code waits.
 */
export type MaybePromise<T> = T | Promise<T>

/**
 * `then(value)` at once when `value` is at hand, after it settles when it is a promise.
 * @example andThen(records.account(userId), (entry) => entry?.record.apiAccess ?? false)
 */
export function andThen<T, U>(value: MaybePromise<T>, then: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(then) : then(value)
}
