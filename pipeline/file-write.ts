/**
 * File writes whose failure names the file. Node names the file when it cannot be opened, not when a write to it
 * fails (`ENOSPC: no space left on device, write`), and an operator needs to know which disk filled up.
 *
 * @example writeFileNamed('/snapshots/last-build.json', '{}') // fails with `writing /snapshots/last-build.json: ENOSPC …`
 */
import fs from 'node:fs'

/** `error` with `file` in its message; its `code` kept, the original as its `cause`. */
export function fileError(file: string, error: unknown): Error {
  const { message, code } = error as NodeJS.ErrnoException
  return Object.assign(new Error(`writing ${file}: ${message}`, { cause: error }), { code })
}

/** `fs.writeFileSync`, failing with an error that names `file`. */
export function writeFileNamed(file: string, data: string, options?: fs.WriteFileOptions): void {
  try {
    fs.writeFileSync(file, data, options)
  } catch (error) {
    throw fileError(file, error)
  }
}
