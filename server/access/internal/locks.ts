/**
 * Exclusive locks for the operator's read-edit-write changes (an account record, the next user id), which the CLI and
 * a server, or several CLIs, may make at once on one store: two at once would lose one.
 *
 * @example await withFileLock(path.join(dataDir, 'locks', 'account-1.lock'), () => edit())
 */
import { mkdir, open, rm, stat } from 'node:fs/promises'
import { dirname } from 'node:path'

/** Give up waiting for a lock after this long (the error names the lock). */
export const LOCK_TIMEOUT_MS = 10_000
/** A lock held longer than this is a dead holder's and is taken over. Changes under a lock take milliseconds. */
export const LOCK_STALE_MS = 30_000

/**
 * Calls `tryAcquire` until it takes the lock, with a growing, jittered pause between tries (2 ms to 50 ms).
 * @example await acquire(async () => (await redis.set(key, token, 'PX', LOCK_STALE_MS, 'NX')) === 'OK', key)
 */
export async function acquire(tryAcquire: () => Promise<boolean>, lock: string): Promise<void> {
  const deadline = Date.now() + LOCK_TIMEOUT_MS
  for (let wait = 2; !(await tryAcquire()); wait = Math.min(wait * 2, 50)) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${LOCK_TIMEOUT_MS} ms waiting for the lock ${lock}`)
    await new Promise((resolve) => setTimeout(resolve, wait + Math.random() * wait))
  }
}

/**
 * `change` while holding a lock between processes that share a folder: a lock file created with O_EXCL and removed
 * when done. A holder that died leaves its file behind: one older than `LOCK_STALE_MS` is removed and taken.
 */
export async function withFileLock<T>(file: string, change: () => Promise<T>): Promise<T> {
  await mkdir(dirname(file), { recursive: true })
  await acquire(async () => {
    try {
      const handle = await open(file, 'wx')
      await handle.writeFile(JSON.stringify({ pid: process.pid, at: new Date().toISOString() }))
      await handle.close()
      return true
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const held = await stat(file).catch(() => null)
    if (held && Date.now() - held.mtimeMs > LOCK_STALE_MS) await rm(file, { force: true })
    return false
  }, file)
  try {
    return await change()
  } finally {
    await rm(file, { force: true })
  }
}
