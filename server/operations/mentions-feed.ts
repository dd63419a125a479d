/**
 * The mentions feed shared by get_mentions_feed (every stored mention) and get_smart_mentions_feed (mentions by
 * smart authors): stored tweets that mention the target, newest first by default, sortable by an engagement counter
 * or the author's score and filterable by the author's labels (key `mentions`). Both operations declare themselves
 * around `mentionsFeedHandler`, which differs only in the mention rows it reads. The spec leaves the array key,
 * envelope and `by` values open: see docs/api.md.
 *
 * @example handle: mentionsFeedHandler('get_smart_mentions_feed', (snapshot) => snapshot.smartMentions)
 */
import { mentionRowsBy } from '../queries/mentions.ts'
import type { OperationContext } from './define.ts'
import { plainCategories, plainTags } from '../queries/profile.ts'
import { accountParameters, resolveAccount } from '../params/account.ts'
import { isoUtcOffset } from '../params/dates.ts'
import { filterParameter } from '../params/filters.ts'
import { readLabelFilter } from '../queries/labels.ts'
import { pagedBody, pageParameters, pageRows, readPage, type PageSizeRule } from '../params/page.ts'
import { byParameter, readAscending, readBy, sortParameter } from '../params/sort.ts'
import { array, envelope, id, integer, nullable, object, plainReference, score, string, type Parameter } from '../openapi/schema.ts'
import type { Mentions, Snapshot } from '../snapshot/load.ts'

/** Order of the values in the failure message; `created_at` is the default. */
const MENTIONS_FEED_BY = ['created_at', 'favorites', 'retweets', 'replies', 'views', 'score'] as const

/** Author of a tweet in neither the account nor the friend table. */
const UNKNOWN_USERNAME = 'unknown'
const UNKNOWN_NAME = 'Unknown'

export function mentionsFeedParameters(rule: PageSizeRule): Parameter[] {
  return [
    ...accountParameters('fallback'),
    byParameter(
      MENTIONS_FEED_BY,
      'created_at',
      'Sort column: tweet time, an engagement counter, or the author’s score (authors outside the account table rank below every score).',
    ),
    sortParameter,
    filterParameter('tag_id', 'Keeps mentions whose author carries this tag.', 'server_error'),
    filterParameter('category_id', 'Keeps mentions whose author carries this category.', 'server_error'),
    filterParameter(
      'tag_category_id',
      'Keeps mentions whose author carries a tag of this tag-category. With any author filter, authors outside the account table are dropped.',
      'server_error',
    ),
    ...pageParameters(rule),
  ]
}

export const mentionsFeedResponse = envelope(
  'mentions',
  object({
    id: id(),
    text: nullable(string()),
    created_at: string({ format: 'date-time', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}[+-]\\d{2}:\\d{2}$' }),
    favorites: integer({ minimum: 0 }),
    retweets: integer({ minimum: 0 }),
    replies: integer({ minimum: 0 }),
    views: integer({ minimum: 0 }),
    author: object({
      platform_id: id(),
      username: string(),
      name: string(),
      profile_image: nullable(string()),
      platform_score: nullable(score()),
      followers_count: nullable(integer()),
      tags: array(plainReference()),
      categories: array(plainReference()),
    }),
  }),
)

/** The feed over the mention rows `rowsOf` picks from the snapshot, paged by the size-table row `rule`. */
export function mentionsFeedHandler(rule: PageSizeRule, rowsOf: (snapshot: Snapshot) => Mentions) {
  return ({ query, snapshot }: OperationContext) => {
    const target = resolveAccount(snapshot, query, 'fallback')
    const by = readBy(query, MENTIONS_FEED_BY, 'created_at')
    const ascending = readAscending(query)
    // each author filter implies an author in the account table
    const labels = readLabelFilter(query, snapshot)
    const keep = labels && ((author: number) => author >= 0 && snapshot.accounts.isTracked[author] === 1 && labels(author))
    const request = readPage(query, rule)
    const mentions = rowsOf(snapshot)
    const first = mentions.offsets[target]
    const count = mentions.offsets[target + 1] - first
    // stored newest first; other orders are sorted per request; ascending reads the descending order backwards
    const byValue = by === 'created_at' ? null : mentionRowsBy(snapshot, mentions, target, by)
    const { total, rows } = pageRows(
      request,
      count,
      (p) => {
        const q = ascending ? count - 1 - p : p
        return byValue ? byValue[q] : first + q
      },
      keep && ((row) => keep(mentions.authorIdx[row])),
    )
    return pagedBody(request, total, 'mentions', rows.map((row) => mentionItem(snapshot, mentions.tweetIdx[row], mentions.authorIdx[row])))
  }
}

function mentionItem(snapshot: Snapshot, t: number, authorIdx: number) {
  const { tweets } = snapshot
  return {
    id: tweets.tweetId[t].toString(),
    text: tweets.text.at(t),
    created_at: isoUtcOffset(tweets.createdAtMs[t]),
    favorites: tweets.favorites[t],
    retweets: tweets.retweets[t],
    replies: tweets.replies[t],
    views: tweets.views[t],
    author: author(snapshot, t, authorIdx),
  }
}

/** Score, follower count and labels only for authors in the account table; names for any known author (`idx` ≥ 0). */
function author(snapshot: Snapshot, t: number, idx: number) {
  const { tweets, accounts: a } = snapshot
  const tracked = idx >= 0 && a.isTracked[idx] === 1
  return {
    platform_id: tweets.authorId[t].toString(),
    username: idx >= 0 ? a.username.at(idx) : UNKNOWN_USERNAME,
    name: (idx >= 0 && a.name.at(idx)) || UNKNOWN_NAME,
    profile_image: idx >= 0 ? a.profileImage.at(idx) : null,
    platform_score: tracked ? a.platformScore[idx] : null,
    followers_count: tracked ? a.followersCount[idx] : null,
    tags: tracked ? plainTags(snapshot, idx) : [],
    categories: tracked ? plainCategories(snapshot, idx) : [],
  }
}
