/**
 * A second snapshot for the score and top-researched suites, built once per process from the shared raw data:
 * the 30 previous dates scored by the backfill (score history, score diffs, score trending) and the lookups a real
 * recording server wrote (top researched), plus a server on it and a `query` helper over its Parquet files.
 *
 * The recording: the `recorded` requests (successes, a cache hit, failures, an operation without an account) go
 * through a server on the shared snapshot whose recorder writes to `lookupsDir`; closing it flushes the file. The
 * `older` lines, written by hand and dated 3 and 20 days back, make the 1/7/30-day windows differ. Then
 * `buildSnapshot` reads the folder.
 *
 * @example const { get, query, lookupsDir } = await scored()
 */
import fs from 'node:fs'
import path from 'node:path'
import { buildSnapshot } from '../pipeline/build.ts'
import { DAY_MS } from '../server/params/dates.ts'
import type { Snapshot } from '../server/snapshot/load.ts'
import { pickAccounts, type Picked } from './_account.ts'
import { request, setup, snapshotQuery, type TestEnv } from './_setup.ts'

export const BACKFILL_DAYS = 30

export interface ScoredEnv extends Pick<TestEnv, 'get' | 'query' | 'today'> {
  lookupsDir: string
  /** The requests sent through the recording server, in order, and the platform_id each should record (null: none). */
  recorded: { operation: string; params: Record<string, string>; records: string | null }[]
  /** platform_id → lookups written by hand, with the day offset they were dated at. */
  older: { platformId: string; daysBack: number; count: number }[]
  /** The snapshot its server serves. */
  snapshot: Snapshot
}

let env: Promise<ScoredEnv> | null = null

export function scored(): Promise<ScoredEnv> {
  env ??= create()
  return env
}

/** Requests whose recorded lines the suites check: three accounts with 3, 2 and 1 successful lookups. */
function recordedRequests({ a, b, slug }: Picked): ScoredEnv['recorded'] {
  return [
    { operation: 'get_platform_score', params: { platform_id: a.id }, records: a.id },
    { operation: 'get_score_diff', params: { username: `@${a.username.toUpperCase()}/` }, records: a.id },
    // the same request again: a cache hit is a lookup too
    { operation: 'get_platform_score', params: { platform_id: a.id }, records: a.id },
    { operation: 'get_followers', params: { username: b.username }, records: b.id },
    { operation: 'get_mentions_feed', params: { platform_id: '18446744073709551615', username: b.username }, records: b.id },
    { operation: 'get_platform_info', params: { username: slug.slug }, records: slug.id },
    // failures and operations without an account record nothing
    { operation: 'get_platform_score', params: { username: 'no_such_handle_zz9' }, records: null },
    { operation: 'get_platform_score', params: {}, records: null },
    { operation: 'get_followers', params: { username: b.username, by: 'nope' }, records: null },
    { operation: 'get_categories', params: {}, records: null },
  ]
}

async function create(): Promise<ScoredEnv> {
  const shared = await setup()
  const root = path.dirname(shared.snapshotsDir)
  const lookupsDir = path.join(root, 'scored-lookups')
  const picked = await pickAccounts()

  const recorder = await shared.startAnother({ lookupsDir })
  const recorded = recordedRequests(picked)
  for (const { operation, params } of recorded) await request(recorder.url, shared.key, operation, params)
  await recorder.close()

  // two other accounts looked up earlier only: 5 times 3 days back, 10 times 20 days back
  const [three, twenty] = await shared.query<{ id: string }>(`
    SELECT platform_id::VARCHAR AS id FROM accounts
    WHERE is_tracked AND platform_id::VARCHAR NOT IN ('${picked.a.id}', '${picked.b.id}', '${picked.slug.id}')
    ORDER BY platform_id LIMIT 2`)
  const older = [
    { platformId: three.id, daysBack: 3, count: 5 },
    { platformId: twenty.id, daysBack: 20, count: 10 },
  ]
  const lines = older.flatMap(({ platformId, daysBack, count }) =>
    Array.from({ length: count }, () =>
      JSON.stringify({ at: new Date(Date.now() - daysBack * DAY_MS).toISOString(), operation: 'get_platform_score', platform_id: platformId }),
    ),
  )
  fs.writeFileSync(path.join(lookupsDir, 'older.ndjson'), `${lines.join('\n')}\n`)

  const snapshotsDir = path.join(root, 'scored-snapshots')
  await buildSnapshot({
    rawDir: path.join(root, 'raw'),
    snapshotsDir,
    date: shared.today,
    backfillDays: BACKFILL_DAYS,
    lookupsDir,
  })
  const server = await shared.startAnother({ snapshotsDir, lookupsDir: null })
  return {
    today: shared.today,
    lookupsDir,
    recorded,
    older,
    get: (operation, params = {}, options = {}) => request(server.url, shared.key, operation, params, options),
    query: await snapshotQuery(fs.realpathSync(path.join(snapshotsDir, 'current'))),
    snapshot: server.snapshots.current,
  }
}
