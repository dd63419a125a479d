/**
 * The outcome of the last nightly build, in `<snapshots>/last-build.json`, for monitoring (the server's
 * `pipeline_last_build_*` metrics, or any check that reads the file): whether it published, when it ended, how long
 * it ran, the snapshot it published or the error that stopped it. Written through a temp file and a rename.
 *
 * @example await recordBuild(snapshotsDir, () => buildSnapshot(opts))
 */
import fs from 'node:fs'
import path from 'node:path'
import { log } from '../log/logger.ts'
import { BuildLockedError } from './publish.ts'
import { writeFileNamed } from './file-write.ts'

export interface BuildStatus {
  outcome: 'published' | 'failed'
  build_date: string
  started_at: string
  finished_at: string
  duration_ms: number
  snapshot_id: string | null
  error: string | null
  /**
   * what an operator should know of a published build: days built as gaps (no raw folder), late folders kept
   * unfolded, raw entries not read, and what failed after publishing (retention, marking the state)
   */
  warnings: string[]
}

export const BUILD_STATUS_FILE = 'last-build.json'

/** Run a build and record its outcome; the build's own result or error passes through unchanged. */
export async function recordBuild<T extends { snapshotId: string; warnings: string[] }>(
  snapshotsDir: string,
  buildDate: string,
  build: () => Promise<T>,
): Promise<T> {
  const started = new Date()
  // the build's own outcome comes first: a status that cannot be written is logged, never thrown in its place
  const write = (status: Pick<BuildStatus, 'outcome' | 'snapshot_id' | 'error' | 'warnings'>) => {
    const finished = new Date()
    try {
      writeBuildStatus(snapshotsDir, {
        ...status,
        build_date: buildDate,
        started_at: started.toISOString(),
        finished_at: finished.toISOString(),
        duration_ms: finished.getTime() - started.getTime(),
      })
    } catch (error) {
      log.error('build.status_write_failed', { file: path.join(snapshotsDir, BUILD_STATUS_FILE), error: String(error) })
    }
  }
  try {
    const result = await build()
    write({ outcome: 'published', snapshot_id: result.snapshotId, error: null, warnings: result.warnings })
    return result
  } catch (error) {
    // refused because another build runs: that build records its own outcome
    if (error instanceof BuildLockedError) throw error
    write({ outcome: 'failed', snapshot_id: null, error: error instanceof Error ? error.message : String(error), warnings: [] })
    throw error
  }
}

function writeBuildStatus(snapshotsDir: string, status: BuildStatus): void {
  fs.mkdirSync(snapshotsDir, { recursive: true })
  const file = path.join(snapshotsDir, BUILD_STATUS_FILE)
  const temp = `${file}.tmp-${process.pid}`
  try {
    writeFileNamed(temp, JSON.stringify(status, null, 2) + '\n')
    fs.renameSync(temp, file)
  } catch (error) {
    fs.rmSync(temp, { force: true })
    throw error
  }
}
