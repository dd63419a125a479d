import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { accountResolutionCases, pickAccounts } from './_account.ts'
import { assertMatchesOpenApi } from './_openapi.ts'
import { setup } from './_setup.ts'

const Categorized = suite('get_categorized_followers_count')

/** The list recomputed from smart_followers and account_categories (not from the pipeline's mart). */
async function expected(targetId: string) {
  const { query } = await setup()
  const followers = `SELECT follower_idx FROM smart_followers WHERE target_id = '${targetId}'::UBIGINT`
  const [{ all, none }] = await query(`
    SELECT count(DISTINCT f.follower_idx)::INTEGER AS all,
           count(DISTINCT f.follower_idx) FILTER (WHERE NOT EXISTS (SELECT 1 FROM account_categories c WHERE c.account_idx = f.follower_idx))::INTEGER AS none
    FROM (${followers}) f`)
  const counts = await query(`
    SELECT c.name, c.category_id AS id, count(ac.account_idx)::INTEGER AS cnt
    FROM categories c LEFT JOIN account_categories ac ON ac.category_id = c.category_id AND ac.account_idx IN (${followers})
    GROUP BY ALL ORDER BY c.category_id`)
  const lead = [3, 1, 7].map((id) => counts.find((c) => c.id === id)!)
  const rest = counts.filter((c) => ![3, 1, 7].includes(c.id)).sort((x, y) => y.cnt - x.cnt || x.id - y.id)
  return [{ name: 'All', id: null, cnt: all }, ...lead, ...rest, { name: 'NoCategory', id: 0, cnt: none }]
}

Categorized('happy :: All, Projects, Venture Capitals, Influencers, the rest by count desc, NoCategory', async () => {
  const { get } = await setup()
  const { a, b } = await pickAccounts()
  for (const target of [a, b]) {
    const res = await get('get_categorized_followers_count', { platform_id: target.id })
    assert.equal(res.body, { success: true, categories: await expected(target.id) })
    await assertMatchesOpenApi('get_categorized_followers_count', res)
  }
})

Categorized('happy :: a follower in several categories counts in each; All counts distinct followers', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  const { categories } = (await get('get_categorized_followers_count', { platform_id: a.id })).body
  const [all, ...rest] = categories
  const sum = rest.reduce((s: number, c: { cnt: number }) => s + c.cnt, 0)
  assert.ok(sum >= all.cnt)
})

Categorized('zeros :: a target without smart followers gets the same list with zeros, others by id', async () => {
  const { get, query } = await setup()
  const [quiet] = await query(`SELECT platform_id::VARCHAR AS id FROM accounts WHERE smart_followers_count = 0 AND is_tracked ORDER BY platform_id LIMIT 1`)
  assert.ok(quiet, 'the tiny snapshot needs an account without smart followers')
  const res = await get('get_categorized_followers_count', { platform_id: quiet.id })
  assert.equal(res.body, { success: true, categories: await expected(quiet.id) })
  assert.ok(res.body.categories.every((c: { cnt: number }) => c.cnt === 0))
})

accountResolutionCases(Categorized, 'get_categorized_followers_count', 'fallback')

Categorized.run()
