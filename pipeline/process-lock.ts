/**
 * A lock file that names the live process holding it: one nightly build per snapshots folder (`.build.lock`), one
 * server per embedded store (`DATA_DIR/server.lock`). A dead holder's lock is taken over at once, without waiting
 * for it to go stale.
 *
 * @example const release = acquireProcessLock('/srv/snapshots/.build.lock', 'build'); try { ... } finally { release() }
 */
import fs from 'node:fs'
import path from 'node:path'
import { writeFileNamed } from './file-write.ts'

/** Another live process holds the lock: this one did nothing. */
export class LockHeldError extends Error {}

/**
 * Take the lock file `lock` for this process, which is `what` (a build, a server) in its folder; `LockHeldError` when
 * a live process holds it. The lock holds the holder's pid and, where the OS tells it (Linux), when that process
 * started (the boot and the start time since boot). A lock whose process is gone (killed) is taken over at once
 * (`takeOverLock`), and so is one whose pid now names another process (reused after a restart) or a zombie. Returns
 * the release function, which removes the lock only while it is this process's.
 */
export function acquireProcessLock(lock: string, what: string): () => void {
  const mine = JSON.stringify({ pid: process.pid, started: startOf(process.pid) })
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createHolding(lock, mine)) {
      return () => {
        if (readLock(lock) === mine) fs.rmSync(lock, { force: true })
      }
    }
    const seen = readLock(lock)
    if (seen === null) continue
    const holder = readHolder(seen)
    if (holder.pid !== process.pid && holds(holder)) {
      throw new LockHeldError(`another ${what} (pid ${holder.pid}) is running on ${path.dirname(lock)}`)
    }
    takeOverLock(lock, seen, mine)
  }
  throw new Error(`cannot lock ${lock}`)
}

/**
 * Remove the lock `lock` of a process that is gone, if it still holds what was read (`seen`), under the guard
 * `<lock>.takeover` (holding `mine`): processes that judge one dead lock remove it one at a time, so none removes a
 * lock taken since. A guard held by a live process refuses this one; a guard left by a process that died is removed.
 */
export function takeOverLock(lock: string, seen: string, mine: string): void {
  const guard = `${lock}.takeover`
  if (!createHolding(guard, mine)) {
    const other = readLock(guard)
    if (other !== null && holds(readHolder(other))) throw new LockHeldError(`another process is taking over the lock ${lock}`)
    fs.rmSync(guard, { force: true })
    return
  }
  try {
    if (readLock(lock) === seen) fs.rmSync(lock, { force: true })
  } finally {
    fs.rmSync(guard, { force: true })
  }
}

/**
 * Create `file` holding `text` at once (written aside, then linked: never seen empty; on a filesystem without hard
 * links, created exclusively and written); false when it exists.
 */
function createHolding(file: string, text: string): boolean {
  const aside = `${file}.${process.pid}`
  writeFileNamed(aside, text)
  try {
    fs.linkSync(aside, file)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error
    return createExclusive(file, text)
  } finally {
    fs.rmSync(aside, { force: true })
  }
}

function createExclusive(file: string, text: string): boolean {
  try {
    writeFileNamed(file, text, { flag: 'wx' })
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

/** The lock file's text, or null when there is none. */
function readLock(lock: string): string | null {
  try {
    return fs.readFileSync(lock, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

interface Holder {
  pid: number
  /** startOf(pid) when the lock was taken; undefined in a lock holding the pid alone */
  started?: string | null
}

function readHolder(text: string): Holder {
  try {
    const holder = JSON.parse(text) as Holder | number
    return typeof holder === 'number' ? { pid: holder } : holder
  } catch {
    return { pid: Number.NaN }
  }
}

/** Whether the process that took the lock still runs: its pid is alive, not a zombie, and started when it did. */
function holds({ pid, started }: Holder): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  const now = startOf(pid)
  if (now === 'zombie') return false
  return started === undefined || started === null || now === null || now === started
}

/**
 * When process `pid` started, as `<boot id>:<start time in clock ticks since boot>` (/proc, Linux); 'zombie' for a
 * process that ended and was not reaped; null where the OS does not tell.
 */
function startOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // the fields after the command name (in parentheses): state is the 3rd field, starttime the 22nd
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (fields[0] === 'Z') return 'zombie'
    return `${fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()}:${fields[19]}`
  } catch {
    return null
  }
}
