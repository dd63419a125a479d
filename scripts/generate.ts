/**
 * npm run generate -- --scale tiny|demo|large --seed 42 [--out raw] [--end-date YYYY-MM-DD] [--days N]
 * Writes the raw day folders of docs/raw-data.md (`<out>/YYYY-MM-DD/`, default `raw/`, end date = today's UTC date,
 * 60 days, at most 365) and prints row counts.
 */
import { parseArgs } from 'node:util'
import { log } from '../log/logger.ts'
import { isCalendarDay } from '../pipeline/raw-days.ts'
import { generateRaw } from './generate/index.ts'
import { DEFAULT_DAYS, MAX_DAYS, SCALES, type ScaleName } from './generate/scales.ts'

const USAGE = 'usage: npm run generate -- [--scale tiny|demo|large] [--seed N] [--out DIR] [--end-date YYYY-MM-DD] [--days N]'

/** A mistake in the command line: its message and the usage, exit code 2. */
function usageError(message: string): never {
  console.error(`${message}\n${USAGE}`)
  process.exit(2)
}

function options() {
  try {
    return parseArgs({
      options: {
        scale: { type: 'string', default: 'demo' },
        seed: { type: 'string', default: '42' },
        out: { type: 'string', default: 'raw' },
        'end-date': { type: 'string', default: new Date().toISOString().slice(0, 10) },
        days: { type: 'string', default: String(DEFAULT_DAYS) },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error))
  }
}

const values = options()
if (values.help) {
  console.log(USAGE)
  process.exit(0)
}
if (!Object.hasOwn(SCALES, values.scale)) usageError(`--scale must be one of ${Object.keys(SCALES).join(', ')}`)
if (!/^\d+$/.test(values.seed)) usageError('--seed must be a non-negative integer')
if (!isCalendarDay(values['end-date'])) usageError(`--end-date must be a real date YYYY-MM-DD, got ${values['end-date']}`)

const days = Number(values.days)
if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS) usageError(`--days must be an integer from 1 to ${MAX_DAYS}`)

const started = Date.now()
const { outDir, counts } = await generateRaw({
  scale: values.scale as ScaleName,
  seed: Number(values.seed),
  outDir: values.out,
  endDate: values['end-date'],
  days,
}).catch((error: unknown) => {
  log.error('generate.failed', { reason: error instanceof Error ? error.message : String(error) })
  process.exit(1)
})
const seconds = ((Date.now() - started) / 1000).toFixed(1)
console.log(`generated ${values.scale} (seed ${values.seed}, ${days} days ending ${values['end-date']}) into ${outDir} in ${seconds} s`)
for (const [file, rows] of Object.entries(counts)) {
  console.log(`  ${`${file}.parquet`.padEnd(28)} ${rows.toLocaleString('en-US').padStart(12)} rows`)
}
