import { mkdir, open, rename, rm } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { defineDriver } from 'unstorage'
import fsLiteDriver from 'unstorage/drivers/fs-lite'

const TEMP_SUFFIX = '.tmp'
let tempSequence = 0

/**
 * unstorage's `fs-lite` driver, except that every write goes to a temporary file that is flushed to disk and then
 * renamed over the target, and the folder is flushed too (so the rename itself survives a power loss): a crash
 * leaves either the old or the new file, never a torn one.
 * @example createStorage({ driver: atomicFsDriver({ base: './data' }) })
 */
export const atomicFsDriver = defineDriver((opts: { base: string }) => {
  const base = resolve(opts.base)
  const lite = fsLiteDriver({ base, ignore: (path: string) => path.endsWith(TEMP_SUFFIX) })
  const pathOf = (key: string) => {
    if (key.split(':').some((segment) => segment === '..')) throw new Error(`Invalid storage key ${JSON.stringify(key)}`)
    return join(base, key.replace(/:/g, '/'))
  }
  const write = (key: string, value: string | Uint8Array) => writeFileAtomic(pathOf(key), value)
  return { ...lite, name: 'fs-atomic', options: opts, setItem: write, setItemRaw: write }
})

async function writeFileAtomic(path: string, value: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const temp = `${path}.${process.pid}.${++tempSequence}${TEMP_SUFFIX}`
  const file = await open(temp, 'w')
  try {
    await file.writeFile(value)
    await file.sync()
  } finally {
    await file.close()
  }
  await rename(temp, path).catch(async (error) => {
    await rm(temp, { force: true })
    throw error
  })
  const folder = await open(dirname(path), 'r')
  try {
    await folder.sync()
  } finally {
    await folder.close()
  }
}
