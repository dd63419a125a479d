/**
 * A build run in a child process and killed with SIGKILL the moment it writes a log line containing `at`, as a
 * machine losing power mid-build would leave it.
 * @example const child = buildKilledAt({ rawDir, snapshotsDir, date: '2026-11-22' }, '"step":"commit_state"')
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const BUILD = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'pipeline', 'build.ts')

export function buildKilledAt(opts: { rawDir: string; snapshotsDir: string; date: string }, at: string): SpawnSyncReturns<string> {
  const code = `
    import { buildSnapshot } from ${JSON.stringify(BUILD)}
    const write = process.stderr.write.bind(process.stderr)
    process.stderr.write = (chunk, ...rest) => {
      if (String(chunk).includes(${JSON.stringify(at)})) process.kill(process.pid, 'SIGKILL')
      return write(chunk, ...rest)
    }
    await buildSnapshot(${JSON.stringify(opts)})`
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'info' },
  })
}
