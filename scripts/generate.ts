/**
 * npm run generate -- --scale tiny|demo|large --seed 42 [--out raw] [--end-date YYYY-MM-DD] [--days N]
 * Writes the raw day folders of docs/raw-data.md (`<out>/YYYY-MM-DD/`, default `raw/`, end date = today's UTC date,
 * 60 days, at most 365) and prints row counts.
 */
import { parseArgs } from 'node:util'
import { log } from '../log/logger.ts'
import { generateRaw } from './generate/index.ts'
import { DEFAULT_DAYS, MAX_DAYS, SCALES, type ScaleName } from './generate/scales.ts'

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: 'demo' },
    seed: { type: 'string', default: '42' },
    out: { type: 'string', default: 'raw' },
    'end-date': { type: 'string', default: new Date().toISOString().slice(0, 10) },
    days: { type: 'string', default: String(DEFAULT_DAYS) },
  },
})

if (!(values.scale! in SCALES)) {
  console.error(`--scale must be one of ${Object.keys(SCALES).join(', ')}`)
  process.exit(2)
}
if (!/^\d+$/.test(values.seed!)) {
  console.error('--seed must be a non-negative integer')
  process.exit(2)
}

const days = Number(values.days)
if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS) {
  console.error(`--days must be an integer from 1 to ${MAX_DAYS}`)
  process.exit(2)
}

const started = Date.now()
const { outDir, counts } = await generateRaw({
  scale: values.scale as ScaleName,
  seed: Number(values.seed),
  outDir: values.out!,
  endDate: values['end-date']!,
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
