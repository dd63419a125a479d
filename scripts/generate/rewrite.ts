/**
 * Rewrite one raw file in place with a DuckDB query over it (`t` = the current file): the file of a single-folder
 * layout, or that file in every day folder of the daily layout. For attacked and cleaned copies of generated data
 * (the score audit and its tests).
 *
 * @example await rewriteRawFile(copy, 'follow_scans.parquet', withoutAttacksSql(truth.attacks))
 */
import fs from 'node:fs'
import path from 'node:path'
import { openPipelineDb, sqlString } from '../../pipeline/duckdb.ts'
import { rawLayout } from '../../pipeline/raw-days.ts'

export async function rewriteRawFile(dir: string, file: string, select: string): Promise<void> {
  const layout = rawLayout(dir)
  const targets = (layout.kind === 'daily' ? layout.days.map((day) => path.join(layout.root, day, file)) : [path.join(dir, file)])
    .filter((f) => fs.existsSync(f))
  const db = await openPipelineDb()
  try {
    for (const target of targets) {
      // a new file in place of the old one: day folders may share their reference files as hard links
      const temp = `${target}.rewrite`
      try {
        await db.conn.run(`create or replace table t as select * from read_parquet(${sqlString(target)});
          copy (${select}) to ${sqlString(temp)} (format parquet, compression zstd)`)
        fs.renameSync(temp, target)
      } finally {
        fs.rmSync(temp, { force: true })
      }
    }
  } finally {
    db.close()
  }
}
