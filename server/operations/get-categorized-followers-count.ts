/** GET /api/v1/get_categorized_followers_count — smart followers per category: All, fixed three, the rest, NoCategory. */
import { defineOperation } from './define.ts'
import { accountParameters, resolveAccount } from '../params/account.ts'
import type { Snapshot } from '../snapshot/load.ts'
import { array, integer, nullable, object, string } from '../openapi/schema.ts'

/** Projects, Venture Capitals, Influencers: listed right after `All`, in this order. */
const LEADING_CATEGORY_IDS = [3, 1, 7]
const ALL_ID = -1
const NO_CATEGORY_ID = 0

export default defineOperation({
  name: 'get_categorized_followers_count',
  groups: ['Followers'],
  summary:
    'Smart followers counted per category: `All` (id null, distinct), Projects, Venture Capitals, Influencers, the other categories by count desc, then `NoCategory` (id 0).',
  parameters: accountParameters('fallback'),
  response: object({
    success: { const: true },
    categories: array(object({ name: string(), id: nullable(integer()), cnt: integer({ minimum: 0 }) })),
  }),
  cache: 'default',
  handle({ query, snapshot }) {
    const idx = resolveAccount(snapshot, query, 'fallback')
    const counts = snapshot.categorizedCounts
    const rows = []
    for (let r = counts.offsets[idx]; r < counts.offsets[idx + 1]; r++) rows.push(entry(snapshot, counts.categoryId[r], counts.cnt[r]))
    return { success: true, categories: rows.length > 0 ? rows : zeroCounts(snapshot) }
  },
})

function entry(snapshot: Snapshot, categoryId: number, cnt: number) {
  if (categoryId === ALL_ID) return { name: 'All', id: null, cnt }
  if (categoryId === NO_CATEGORY_ID) return { name: 'NoCategory', id: NO_CATEGORY_ID, cnt }
  return { name: snapshot.categoryById.get(categoryId)?.name ?? '', id: categoryId, cnt }
}

/** The same list for a target without smart followers: all zeros, so the other categories go by id. */
function zeroCounts(snapshot: Snapshot) {
  const others = snapshot.categories.filter((c) => !LEADING_CATEGORY_IDS.includes(c.id)).map((c) => c.id)
  return [ALL_ID, ...LEADING_CATEGORY_IDS, ...others, NO_CATEGORY_ID].map((id) => entry(snapshot, id, 0))
}
