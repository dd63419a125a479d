/**
 * Whether a process with this id is alive on this host (a signal 0 reaches it, or it exists but is another user's).
 * Used to tell what a dead process left behind: a temporary file, a lock.
 * @example isRunning(process.pid) // true
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
