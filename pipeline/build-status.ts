/**
 * The outcome of the last nightly build, in `<snapshots>/last-build.json`, for monitoring (the server's
 * `pipeline_last_build_*` metrics, or any check that reads the file): whether it published, when it ended, how long
 * it ran, the snapshot it published or the error that stopped it. Written through a temp file and a rename.
 *
 * @example await recordBuild(snapshotsDir, () => buildSnapshot(opts))
 */
import fs from 'node:fs'
import path from 'node:path'

export interface BuildStatus {
  outcome: 'published' | 'failed'
  build_date: string
  started_at: string
  finished_at: string
  duration_ms: number
  snapshot_id: string | null
  error: string | null
}

export const BUILD_STATUS_FILE = 'last-build.json'

/** Run a build and record its outcome; the build's own result or error passes through unchanged. */
export async function recordBuild<T extends { snapshotId: string }>(
  snapshotsDir: string,
  buildDate: string,
  build: () => Promise<T>,
): Promise<T> {
  const started = new Date()
  const write = (status: Pick<BuildStatus, 'outcome' | 'snapshot_id' | 'error'>) => {
    const finished = new Date()
    writeBuildStatus(snapshotsDir, {
      ...status,
      build_date: buildDate,
      started_at: started.toISOString(),
      finished_at: finished.toISOString(),
      duration_ms: finished.getTime() - started.getTime(),
    })
  }
  try {
    const result = await build()
    write({ outcome: 'published', snapshot_id: result.snapshotId, error: null })
    return result
  } catch (error) {
    write({ outcome: 'failed', snapshot_id: null, error: error instanceof Error ? error.message : String(error) })
    throw error
  }
}

export function writeBuildStatus(snapshotsDir: string, status: BuildStatus): void {
  fs.mkdirSync(snapshotsDir, { recursive: true })
  const file = path.join(snapshotsDir, BUILD_STATUS_FILE)
  const temp = `${file}.tmp-${process.pid}`
  fs.writeFileSync(temp, JSON.stringify(status, null, 2) + '\n')
  fs.renameSync(temp, file)
}
