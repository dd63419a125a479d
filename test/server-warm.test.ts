/**
 * The warm-up of a loaded snapshot (server/internal/warm.ts): the kept per-snapshot structures are built ahead of
 * requests, busiest targets first, in slices between which requests are answered. Expected target sets come from
 * SQL over the snapshot's Parquet files, with the thresholds the modules document (256 and 4096 smart followers, 64
 * smart-mention rows, 64 mention rows). That the structures answer as the scans is tested per operation.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { busiestFirst } from '../server/internal/author_index.ts'
import { likelyAskedFirst } from '../server/queries/mentioners.ts'
import { warmReport, warmSnapshot, type Warmer } from '../server/internal/warm.ts'
import { scored } from './_scored.ts'
import { setup } from './_setup.ts'

const Warm = suite('snapshot warm-up')

/** Targets with at least `rows` rows in `table`, as SQL counts them. */
async function targetsWith(table: string, rows: number): Promise<number> {
  const { query } = await setup()
  const [{ n }] = await query(`SELECT count(*)::INTEGER AS n FROM (SELECT target_idx FROM ${table} GROUP BY 1 HAVING count(*) >= ${rows})`)
  return n
}

Warm('healthz :: the served snapshot is warmed in the background: every target past each threshold gets its structure', async () => {
  const env = await setup()
  await env.server.snapshots.warmed
  const { body } = await env.get('/healthz', {}, { key: null })
  assert.is(body.warm.complete, true)
  assert.type(body.warm.ms, 'number')
  const expected = {
    category_sums: await targetsWith('smart_followers', 256),
    label_sums: await targetsWith('smart_followers', 4096),
    smart_mention_indexes: await targetsWith('smart_mentions', 64),
    mentioner_indexes: await targetsWith('mentions', 64),
  }
  assert.equal(body.warm.built, expected)
  assert.ok(expected.smart_mention_indexes > 0 && expected.mentioner_indexes > 0, JSON.stringify(expected))
})

Warm('order :: busiest first (ties by target), the threshold applied', async () => {
  const { query, server } = await setup()
  const rows = await query<{ target_idx: number }>(
    `SELECT target_idx FROM smart_mentions GROUP BY 1 HAVING count(*) >= 3 ORDER BY count(*) DESC, target_idx`,
  )
  const order = busiestFirst(server.snapshots.current.smartMentions.offsets, 3)
  assert.equal([...order], rows.map((r) => r.target_idx))
})

Warm('order :: mentioner indexes go to the 30-day top researched first, then by smart followers', async () => {
  // the snapshot built with recorded lookups; every target with a mention as a candidate
  const { query, snapshot } = await scored()
  const rows = await query<{ target_idx: number; researched: boolean }>(`
    SELECT m.target_idx, r.lookups IS NOT NULL AS researched
    FROM (SELECT DISTINCT target_idx FROM mentions) m
    JOIN accounts a ON a.account_idx = m.target_idx
    LEFT JOIN (SELECT account_idx, lookups FROM top_researched WHERE days = 30) r ON r.account_idx = m.target_idx
    ORDER BY r.lookups DESC NULLS LAST, a.platform_id, a.smart_followers_count DESC, m.target_idx`)
  const researched = rows.filter((r) => r.researched).map((r) => r.target_idx)
  const rest = rows.filter((r) => !r.researched).map((r) => r.target_idx)
  const smart = snapshot.accounts.smartFollowersCount
  rest.sort((a, b) => smart[b] - smart[a] || a - b)
  assert.ok(researched.length >= 2 && rest.length > 10, `${researched.length} researched, ${rest.length} others`)
  const candidates = Int32Array.from(rows.map((r) => r.target_idx).sort((a, b) => a - b))
  assert.equal([...likelyAskedFirst(snapshot, candidates)], [...researched, ...rest])
})

/** A warmer over the snapshot's smart-mention targets that records what it is asked, spins `spinMs` per build. */
function recordingWarmer(spinMs: number, budget: number): Warmer & { asked: number[] } {
  const asked: number[] = []
  return {
    name: 'recording',
    asked,
    targets: (snapshot) => busiestFirst(snapshot.smartMentions.offsets, 1),
    build(_snapshot, target) {
      if (asked.length === budget) return false
      asked.push(target)
      const until = performance.now() + spinMs
      while (performance.now() < until);
      return true
    },
  }
}

Warm('runner :: stops at a spent budget, yields to the event loop between slices, stops once not wanted', async () => {
  const { server } = await setup()
  const snapshot = server.snapshots.current
  const all = busiestFirst(snapshot.smartMentions.offsets, 1)
  assert.ok(all.length > 12, `${all.length} targets`)

  const budgeted = recordingWarmer(0, 5)
  const report = await warmSnapshot(snapshot, { warmers: [budgeted] })
  assert.equal(budgeted.asked, [...all.slice(0, 5)])
  assert.equal(report, { complete: true, ms: report.ms, built: { recording: 5 } })

  // 12 builds of 3 ms in slices of 4 ms: other work runs between them
  let turns = 0
  let ticking = true
  const tick = () => ticking && (turns++, setImmediate(tick))
  setImmediate(tick)
  const slow = recordingWarmer(3, 12)
  await warmSnapshot(snapshot, { warmers: [slow], sliceMs: 4 })
  ticking = false
  assert.is(slow.asked.length, 12)
  assert.ok(turns >= 5, `${turns} turns of the event loop during the warm-up`)

  let wanted = true
  const stopped = recordingWarmer(3, 1000)
  const running = warmSnapshot(snapshot, { warmers: [stopped], sliceMs: 4, wanted: () => wanted })
  wanted = false
  const partial = await running
  assert.is(partial.complete, false)
  assert.ok(stopped.asked.length >= 1 && stopped.asked.length <= 3, `${stopped.asked.length} built`)
  assert.is(warmReport(snapshot), partial)
})

Warm.run()
