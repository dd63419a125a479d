/**
 * GET /api/v1/get_top_researched — the accounts most looked up through this API over the last 1, 7 or 30 days
 * (the server's lookup records, aggregated by the nightly build; at most 1000), most lookups first (key `data`).
 */
import { defineOperation } from './define.ts'
import { pagedItems, pageParameters, readPage } from '../params/page.ts'
import { daysParameter, daysSchema, readDays, DAYS_MESSAGE } from '../params/windows.ts'
import { envelope, id, integer, nullable, object, score, string } from '../openapi/schema.ts'
import type { Snapshot } from '../snapshot/load.ts'

export default defineOperation({
  name: 'get_top_researched',
  groups: ['Lists'],
  summary:
    'Accounts most looked up through this API in the last 1, 7 or 30 days up to the snapshot date, by lookups desc then platform_id (at most 1000).',
  parameters: [
    daysParameter('Window in days, ending on the snapshot date.', DAYS_MESSAGE),
    ...pageParameters('get_top_researched'),
  ],
  response: envelope(
    'data',
    object({
      platform_id: id(),
      username: string(),
      name: nullable(string()),
      profile_image: nullable(string()),
      platform_score: score(),
      followers_count: integer({ minimum: 0 }),
      lookups: integer({ minimum: 1 }),
    }),
    { days: daysSchema() },
  ),
  cache: 'default',
  handle({ query, snapshot }) {
    const days = readDays(query, DAYS_MESSAGE)
    const request = readPage(query, 'get_top_researched')
    const list = snapshot.topResearched.get(days)
    const total = list ? list.accountIdx.length : 0
    return pagedItems(request, total, 'data', (p) => researchedItem(snapshot, list!, p), { days })
  },
})

function researchedItem(snapshot: Snapshot, list: { accountIdx: Int32Array; lookups: Float64Array }, p: number) {
  const a = snapshot.accounts
  const idx = list.accountIdx[p]
  return {
    platform_id: a.platformId.at(idx),
    username: a.username.at(idx),
    name: a.name.at(idx),
    profile_image: a.profileImage.at(idx),
    platform_score: a.platformScore[idx],
    followers_count: a.followersCount[idx],
    lookups: list.lookups[p],
  }
}
