/** Worker entry of `loadSnapshot`: loads one part of the biggest files of a snapshot folder (see `loadWorkerPart`). */
import { answer, workerInput } from '../internal/worker.ts'
import { loadWorkerPart, type WorkerInput } from './load.ts'

await answer(loadWorkerPart(workerInput<WorkerInput>()))
