/**
 * Run a TypeScript module in a worker thread and get its one answer. The app runs under tsx, whose loader a worker
 * does not inherit, so the worker registers it before importing the module. The module answers with
 * `answer(result)` (typed-array buffers are transferred, not copied).
 *
 * @example const tables = await runWorker<NumericTables>(new URL('./load-worker.ts', import.meta.url), dir)
 */
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { parentPort, Worker, workerData } from 'node:worker_threads'

const TSX_API = pathToFileURL(
  createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs'),
).href

export function runWorker<T>(module: URL, data: unknown): Promise<T> {
  const bootstrap = `import(${JSON.stringify(TSX_API)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}) })`
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(bootstrap, { eval: true, workerData: data })
    worker.once('message', (message: { result?: T; error?: string }) => {
      if (message.error !== undefined) reject(new Error(message.error))
      else resolve(message.result as T)
      void worker.terminate()
    })
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`worker ${module.pathname} exited with ${code}`)))
  })
}

/** Inside a worker started by `runWorker`: its input. */
export const workerInput = <T>() => workerData as T

/** Inside a worker started by `runWorker`: send the result (or the failure), transferring every typed array's buffer. */
export async function answer(work: Promise<unknown>): Promise<void> {
  try {
    const result = await work
    parentPort!.postMessage({ result }, [...buffersOf(result)])
  } catch (error) {
    parentPort!.postMessage({ error: error instanceof Error ? error.stack ?? error.message : String(error) })
  }
}

function buffersOf(value: unknown, found = new Set<ArrayBuffer>()): Set<ArrayBuffer> {
  if (ArrayBuffer.isView(value)) found.add(value.buffer as ArrayBuffer)
  else if (value && typeof value === 'object') for (const v of Object.values(value)) buffersOf(v, found)
  return found
}
