/**
 * The accounts a history table's rows name by id (the tweets: each one's author and the accounts it mentions), in a
 * form the server reads without searching ids (docs/snapshot.md, "serving/"):
 * - in each part's serving folder, what depends on the part's rows only (so a part stays linkable): `ids` (u64, the
 *   sorted distinct ids its rows name), `author` (i32 per row: index of the author's id in `ids`), and the mentioned
 *   accounts of each row, `mentioned.count` (i32 per row) and `mentioned` (i32, the rows' lists back to back: indices
 *   into `ids`, each account once, the author left out);
 * - written every night, what depends on the snapshot's accounts: `serving/<table>_accounts/account_idx` (i32), the
 *   account_idx of every part's `ids` in turn, newest part first (-1 for an id of no account).
 *
 * @example await writePartRefs(conn, out, { author: 'author_id', mentioned: 'mentioned_ids' }, numberedRows)
 */
import fs from 'node:fs'
import path from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { chunks, items, ServingWriter, writeColumns } from './serving-writer.ts'

/** A part's column of the distinct ids its rows name (`ids.bin` in its serving folder). */
const IDS = 'ids'

/** The SQL of the columns naming accounts. */
export interface AccountRefs {
  author: string
  mentioned: string
}

/** A part's `ids`, `author`, `mentioned.count` and `mentioned` (see above); `numbered`: its rows with `dense` 0..N-1 in order. */
export async function writePartRefs(conn: DuckDBConnection, out: ServingWriter, refs: AccountRefs, numbered: string): Promise<void> {
  await conn.run(`CREATE OR REPLACE TEMP TABLE part_rows AS SELECT dense, ${refs.author} AS author, ${refs.mentioned} AS mentioned FROM ${numbered}`)
  await conn.run(`CREATE OR REPLACE TEMP TABLE part_ids AS
    SELECT id, (row_number() OVER (ORDER BY id) - 1)::INTEGER AS local
    FROM (SELECT author AS id FROM part_rows UNION SELECT unnest(mentioned) FROM part_rows) WHERE id IS NOT NULL`)
  try {
    await writeColumns(conn, out, 'part_ids', { [IDS]: ['u64', 'id::UBIGINT'] }, 'ORDER BY local')
    await writeColumns(conn, out, 'part_rows r JOIN part_ids p ON p.id = r.author', { author: ['i32', 'p.local'] }, 'ORDER BY r.dense')
    await conn.run(`CREATE OR REPLACE TEMP TABLE part_mentions AS
      SELECT r.dense, p.local FROM (SELECT dense, author, unnest(list_distinct(mentioned)) AS id FROM part_rows) r
      JOIN part_ids p ON p.id = r.id WHERE r.id <> r.author`)
    const counts = `(SELECT r.dense, count(m.local)::INTEGER AS n FROM part_rows r LEFT JOIN part_mentions m ON m.dense = r.dense GROUP BY r.dense)`
    await writeColumns(conn, out, counts, { 'mentioned.count': ['i32', 'n'] }, 'ORDER BY dense')
    await writeColumns(conn, out, 'part_mentions', { mentioned: ['i32', 'local'] }, 'ORDER BY dense, local')
  } finally {
    await conn.run('DROP TABLE IF EXISTS part_rows; DROP TABLE IF EXISTS part_ids; DROP TABLE IF EXISTS part_mentions')
  }
}

/**
 * `serving/<table>_accounts/` in the snapshot folder `dir`: the account_idx (int_accounts) of each part's `ids`, the
 * parts newest first (`folders`: their serving folders in that order). A night reads the distinct ids of each part,
 * not every row; account_idx being the place of an account's id among them all in order, each part's sorted ids are
 * matched in one pass.
 */
export async function writeAccountsOfParts(conn: DuckDBConnection, dir: string, table: string, folders: string[]): Promise<void> {
  const accounts = await accountIds(conn)
  const out = new ServingWriter(path.join(dir, 'serving', `${table}_accounts`))
  try {
    out.appendBytes('account_idx', 'i32', new Int32Array(0))
    for (const folder of folders) {
      const bytes = fs.readFileSync(path.join(folder, `${IDS}.bin`))
      const ids = new BigUint64Array(bytes.byteLength / 8)
      new Uint8Array(ids.buffer).set(bytes)
      const idx = new Int32Array(ids.length)
      for (let i = 0, a = 0; i < ids.length; i++) {
        while (a < accounts.length && accounts[a] < ids[i]) a++
        idx[i] = accounts[a] === ids[i] ? a : -1
      }
      out.appendBytes('account_idx', 'i32', idx)
    }
  } finally {
    out.close()
  }
  out.finish()
}

/** Every account's platform_id, by account_idx (ascending ids). */
async function accountIds(conn: DuckDBConnection): Promise<BigUint64Array> {
  const read: BigUint64Array[] = []
  for await (const chunk of chunks(conn, `SELECT platform_id::UBIGINT FROM int_accounts ORDER BY account_idx`)) {
    read.push((items(chunk.getColumnVector(0)) as BigUint64Array).slice(0, chunk.rowCount))
  }
  const ids = new BigUint64Array(read.reduce((n, c) => n + c.length, 0))
  read.reduce((at, c) => (ids.set(c, at), at + c.length), 0)
  return ids
}
