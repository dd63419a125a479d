/**
 * SQL over the current snapshot: `npm run sql -- "select ..." [--snapshots DIR]`. Every Parquet file of
 * `<DIR>/current` is a view named after the file (accounts, smart_followers, ...), beside the history tables' views
 * and those derived from them (tweets, mentions, ...: pipeline/snapshot-sql.ts). DIR is `--snapshots`, else
 * `SNAPSHOTS_DIR` (the folder the server serves from), else `snapshots`.
 */
import { parseArgs } from 'node:util'
import { formatTable, openSnapshotSql } from '../pipeline/snapshot-sql.ts'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { snapshots: { type: 'string', default: process.env.SNAPSHOTS_DIR || 'snapshots' } },
})
const sql = positionals.join(' ').trim()
if (!sql) {
  console.error('usage: npm run sql -- "select ..." [--snapshots DIR]')
  process.exit(2)
}
try {
  const snapshot = await openSnapshotSql(values.snapshots)
  try {
    console.log(formatTable(await snapshot.query(sql)))
  } finally {
    snapshot.close()
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
