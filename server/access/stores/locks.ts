/**
 * Exclusive locks for the operator's read-edit-write changes (an account record, the next user id), which the CLI and
 * a server, or several CLIs, may make at once on one store: two at once would lose one.
 *
 * @example await withFileLock(path.join(dataDir, 'locks', 'account-1.lock'), () => edit())
 */
import { randomUUID } from 'node:crypto'
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { isRunning } from './process.ts'

/** A lock held longer than this is a dead holder's and is taken over. Changes under a lock take milliseconds. */
export const LOCK_STALE_MS = 15_000
/** Give up waiting for a lock after this long (the error names the lock): longer than a dead holder keeps it. */
export const LOCK_TIMEOUT_MS = 20_000

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

/** What a lock file holds: its holder's token and process. */
interface Holder {
  token: string
  pid: number
}

/**
 * `change` while holding a lock between processes that share a folder: a lock file created with O_EXCL, naming its
 * holder, and removed when done by that holder only. A holder that died leaves its file behind: one whose process
 * is gone (this host), or older than `LOCK_STALE_MS`, is taken over, one waiter at a time (under `<file>.takeover`,
 * itself created with O_EXCL), after checking it is still the same holder's file.
 */
export async function withFileLock<T>(file: string, change: () => Promise<T>): Promise<T> {
  await mkdir(dirname(file), { recursive: true })
  const holder: Holder = { token: randomUUID(), pid: process.pid }
  await acquire(async () => (await create(file, holder)) || (await takeOverDead(file), false), file)
  try {
    return await change()
  } finally {
    if ((await readHolder(file))?.token === holder.token) await rm(file, { force: true })
  }
}

/** Creates `file` naming `holder`; false when it exists. */
async function create(file: string, holder: Holder): Promise<boolean> {
  let handle
  try {
    handle = await open(file, 'wx')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
  try {
    await handle.writeFile(JSON.stringify(holder))
  } finally {
    await handle.close()
  }
  return true
}

/** Removes the lock file if its holder is dead, re-checked under the takeover file so no live holder's file goes. */
async function takeOverDead(file: string): Promise<void> {
  const seen = await readHolder(file)
  if (!(await isDead(file, seen))) return
  const guard = `${file}.takeover`
  if (!(await create(guard, { token: randomUUID(), pid: process.pid }))) {
    // a takeover that died itself: its guard goes once stale
    if (await isStale(guard)) await rm(guard, { force: true })
    return
  }
  try {
    const now = await readHolder(file)
    if (now?.token === seen?.token && (await isDead(file, now))) await rm(file, { force: true })
  } finally {
    await rm(guard, { force: true })
  }
}

async function isDead(file: string, holder: Holder | null): Promise<boolean> {
  if (holder && !isRunning(holder.pid)) return true
  return isStale(file)
}

async function isStale(file: string): Promise<boolean> {
  const held = await stat(file).catch(() => null)
  return held !== null && Date.now() - held.mtimeMs > LOCK_STALE_MS
}

/** The lock file's holder; null when there is no file or it is still being written. */
async function readHolder(file: string): Promise<Holder | null> {
  try {
    const holder = JSON.parse(await readFile(file, 'utf8')) as Holder
    return typeof holder.token === 'string' && Number.isSafeInteger(holder.pid) && holder.pid > 0 ? holder : null
  } catch {
    return null
  }
}
