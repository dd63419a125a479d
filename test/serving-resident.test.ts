/**
 * Serving caches held in memory (`SERVING_RESIDENT_MB`, server/snapshot/sidecar.ts `openSidecar`) answer exactly
 * as those read per request, from the file or through the block pool (`SERVING_BLOCK_CACHE_MB`, block_cache.ts):
 * the same requests to a server of each kind get the same bodies. The shared test server holds the tiny snapshot's
 * files in memory (default limit); the second reads them through a pool of 20 blocks, far less than the files (so
 * blocks are evicted and read again all along); the third reads every file per request.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { BLOCK_BYTES } from '../server/snapshot/block_cache.ts'
import { request, setup } from './_setup.ts'

const Resident = suite('serving caches in memory')

Resident('every operation that reads a serving cache answers the same from memory and from disk', async () => {
  const env = await setup()
  const pooled = await env.startAnother({ servingResidentBytes: 0, servingBlockCacheBytes: 20 * BLOCK_BYTES, lookupsDir: null })
  const onDisk = await env.startAnother({ servingResidentBytes: 0, servingBlockCacheBytes: 0, lookupsDir: null })
  try {
    assert.ok(env.server.snapshots.current.residentBytes > 0, 'the shared server holds its serving caches in memory')
    assert.is(pooled.snapshots.current.residentBytes, 0)
    assert.is(onDisk.snapshots.current.residentBytes, 0)
    // the accounts with the most smart followers, follower-count days and mentions
    const targets = await env.query<{ id: string }>(`
      (SELECT target_id::VARCHAR AS id FROM smart_followers GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 3)
      UNION (SELECT platform_id::VARCHAR FROM followers_count_history GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 2)
      UNION (SELECT target_id::VARCHAR FROM mentions GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 2)`)
    const labels = (await env.query<{ category_id: number; tag_id: number }>(
      `SELECT (SELECT min(category_id) FROM account_categories)::INTEGER AS category_id, (SELECT min(tag_id) FROM account_tags)::INTEGER AS tag_id`,
    ))[0]
    const calls: [string, Record<string, string | number>][] = []
    for (const { id } of targets) {
      for (const by of ['score', 'followers', 'subscribed_at']) {
        for (const sort of ['desc', 'asc']) calls.push(['get_followers', { platform_id: id, by, sort, size: 25 }])
        calls.push(['get_followers', { platform_id: id, by, page: 2 }])
        calls.push(['get_followers', { platform_id: id, by, category_id: labels.category_id }])
        calls.push(['get_followers', { platform_id: id, by, tag_id: labels.tag_id, sort: 'asc' }])
      }
      for (const period of ['7d', '30d', 'all']) calls.push(['followers_count_history', { platform_id: id, period }])
      calls.push(['followers_count_history', { platform_id: id, period: 'all', page: 2 }])
      for (const period of ['7d', 'all']) calls.push(['get_score_history', { platform_id: id, period }])
      calls.push(['get_score_diff', { platform_id: id }])
      calls.push(['get_platform_info', { platform_id: id }])
      for (const op of ['get_mentions_feed', 'get_smart_mentions_feed']) {
        calls.push([op, { platform_id: id }], [op, { platform_id: id, by: 'views', sort: 'asc', size: 25 }])
      }
      calls.push(['get_mentioners', { platform_id: id, days: 30 }])
    }
    for (const days of [1, 7, 30]) calls.push(['get_smart_follows', { days, by: 'score', size: 100 }])
    let successes = 0
    for (const [operation, params] of calls) {
      const [memory, pool, disk] = await Promise.all([
        env.get(operation, params),
        request(pooled.url, env.key, operation, params),
        request(onDisk.url, env.key, operation, params),
      ])
      assert.equal(pool.body, memory.body, `${operation} ${JSON.stringify(params)} through the block pool`)
      assert.equal(disk.body, memory.body, `${operation} ${JSON.stringify(params)} from the file`)
      if (memory.body.success !== false) successes++
    }
    assert.ok(successes > calls.length * 0.9, `${successes} of ${calls.length} calls succeeded`)
    const blocks = pooled.snapshots.blockCache!.report()
    assert.is(blocks.blocks, 20)
    assert.ok(blocks.hits > 0 && blocks.misses > 20, `blocks read again after eviction: ${JSON.stringify(blocks)}`)
    assert.is(onDisk.snapshots.blockCache!.report().misses, 0, 'a pool of 0 bytes reads every block from the file')
  } finally {
    await Promise.all([pooled.close(), onDisk.close()])
  }
})

Resident.run()
