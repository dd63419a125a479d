/**
 * Exclusive locks for the operator's read-edit-write changes (an account record, the next user id), which the CLI and
 * a server, or several CLIs, may make at once on one store: two at once would lose one.
 *
 * @example await withFileLock(path.join(dataDir, 'locks', 'account-1.lock'), () => edit())
 */
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import lockfile from 'proper-lockfile'
import { log } from '../../../log/logger.ts'

/** A lock not refreshed for this long is a dead holder's and is taken over. Changes under a lock take milliseconds. */
export const LOCK_STALE_MS = 15_000
/** Give up waiting for a lock after this long (the error names the lock): longer than a dead holder keeps it. */
const LOCK_TIMEOUT_MS = 20_000
/** The longest pause between two tries (they start at 2 ms and grow). */
const MAX_PAUSE_MS = 50

/**
 * Calls `tryAcquire` until it takes the lock, with a growing, jittered pause between tries (2 ms to 50 ms).
 * @example await acquire(async () => (await redis.set(key, token, 'PX', LOCK_STALE_MS, 'NX')) === 'OK', key)
 */
export async function acquire(tryAcquire: () => Promise<boolean>, lock: string): Promise<void> {
  const deadline = Date.now() + LOCK_TIMEOUT_MS
  for (let wait = 2; !(await tryAcquire()); wait = Math.min(wait * 2, MAX_PAUSE_MS)) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${LOCK_TIMEOUT_MS} ms waiting for the lock ${lock}`)
    await new Promise((resolve) => setTimeout(resolve, wait + Math.random() * wait))
  }
}

/**
 * `change` while holding a lock between processes that share a folder (`proper-lockfile`: `file` is a directory
 * made atomically and refreshed while held). A dead holder's lock goes stale after `LOCK_STALE_MS` and is taken over.
 */
export async function withFileLock<T>(file: string, change: () => Promise<T>): Promise<T> {
  await mkdir(dirname(file), { recursive: true })
  const release = await lockfile
    .lock(file, {
      lockfilePath: file,
      realpath: false,
      stale: LOCK_STALE_MS,
      retries: { retries: Math.ceil(LOCK_TIMEOUT_MS / MAX_PAUSE_MS), minTimeout: 2, maxTimeout: MAX_PAUSE_MS, randomize: true },
      // a holder paused past the stale age lost its lock to another: its change may have overlapped
      onCompromised: (error) => log.error('access.lock_compromised', { lock: file, error: error.message }),
    })
    .catch((error: Error) => {
      throw new Error(`Could not take the lock ${file} within ${LOCK_TIMEOUT_MS} ms: ${error.message}`)
    })
  try {
    return await change()
  } finally {
    await release().catch(() => undefined)
  }
}
