/**
 * The SHA-256 of a file, read as a stream (a snapshot's largest Parquet file is hundreds of MB at large scale: it is
 * never held in memory whole).
 *
 * @example await sha256File('/snapshots/2026-11-22_010203-abcdef/accounts.parquet') // 'e3b0c442…'
 */
import crypto from 'node:crypto'
import fs from 'node:fs'

export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash('sha256')
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}
