/** Worker entry of `loadSnapshot`: loads the biggest files of one snapshot folder (see `loadNumericTables`). */
import { answer, workerInput } from '../internal/worker.ts'
import { loadNumericTables, type WorkerInput } from './load.ts'

await answer(loadNumericTables(workerInput<WorkerInput>()))
