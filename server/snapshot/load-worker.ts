/** Worker entry of `loadSnapshot`: loads the biggest numeric files of one snapshot folder (see `loadNumericTables`). */
import { answer, workerInput } from '../internal/worker.ts'
import { loadNumericTables } from './load.ts'

await answer(loadNumericTables(workerInput<string>()))
