/**
 * SQL over the current snapshot: `npm run sql -- "select ..." [--snapshots DIR]`. Every Parquet file of
 * `<DIR>/current` is a view named after the file (accounts, smart_followers, ...), beside the history tables' views
 * and those derived from them (tweets, mentions, ...: pipeline/snapshot-sql.ts). DIR is `--snapshots`, else
 * `SNAPSHOTS_DIR` (the folder the server serves from), else `snapshots`.
 * `npm run -s sql -- --views` prints the `create view` statements instead, for another DuckDB (`.read` them in its CLI).
 */
import { parseArgs } from 'node:util'
import { currentSnapshotDir, formatTable, openSnapshotSql, snapshotViews } from '../pipeline/snapshot-sql.ts'

const USAGE = 'usage: npm run sql -- "select ..." [--snapshots DIR]\n       npm run -s sql -- --views [--snapshots DIR]'

function options() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        snapshots: { type: 'string', default: process.env.SNAPSHOTS_DIR || 'snapshots' },
        views: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`)
    process.exit(2)
  }
}

const { values, positionals } = options()
const sql = positionals.join(' ').trim()
if (values.help) {
  console.log(USAGE)
  process.exit(0)
}
if (!sql && !values.views) {
  console.error(USAGE)
  process.exit(2)
}
try {
  if (values.views) {
    for (const [, statement] of snapshotViews(currentSnapshotDir(values.snapshots))) console.log(`${statement.trim()};`)
  } else {
    const snapshot = await openSnapshotSql(values.snapshots)
    try {
      console.log(formatTable(await snapshot.query(sql)))
    } finally {
      snapshot.close()
    }
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
