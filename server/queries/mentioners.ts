/**
 * The page of get_mentioners: distinct tracked authors of the target's mentions inside a window, ordered by score or
 * follower count (descending, ties account_idx ascending; ascending is that order reversed), with optional tag and
 * category filters, plus the total.
 *
 * @example mentionerPage(snapshot, target, { startMs, endMs, by: 'score', ascending: false, tagId: null, categoryId: null, request })
 *          // { total: 6981, authors: [account_idx of the 10 best-scored mentioners] }
 */
import { hasLabel } from './labels.ts'
import { rowsInWindow } from './mentions.ts'
import { type PageRequest, pageRange } from '../params/page.ts'
import type { Snapshot } from '../snapshot/types.ts'

export type MentionersBy = 'score' | 'followers'

export interface MentionersQuery {
  /** Inclusive window bounds, epoch milliseconds. */
  startMs: number
  endMs: number
  by: MentionersBy
  ascending: boolean
  tagId: number | null
  categoryId: number | null
  request: PageRequest
}

/** `total` mentioners in the window after the filters; `authors` = account_idx of the requested page, in order. */
export interface MentionersPage {
  total: number
  authors: number[]
}

/** The page and total of `query`. */
export function mentionerPage(snapshot: Snapshot, target: number, query: MentionersQuery): MentionersPage {
  const { mentions, tweets, accounts: a } = snapshot
  const { from, to } = rowsInWindow(mentions, target, query.startMs, query.endMs)
  const distinct = new Set<number>()
  for (let r = from; r < to; r++) {
    const author = tweets.authorIdx[mentions.tweetIdx[r]]
    if (author >= 0 && a.isTracked[author] && passesFilters(snapshot, author, query)) distinct.add(author)
  }
  const descending = descendingBy(snapshot, query.by)
  const authors = [...distinct].sort(query.ascending ? (x, y) => descending(y, x) : descending)
  const { start, end } = pageRange(query.request, authors.length)
  return { total: authors.length, authors: authors.slice(start, end) }
}

/** The author carries the tag and the category asked for (each when asked). */
function passesFilters(snapshot: Snapshot, author: number, { tagId, categoryId }: MentionersQuery): boolean {
  return (
    (tagId === null || hasLabel(snapshot.accountTags, author, tagId)) &&
    (categoryId === null || hasLabel(snapshot.accountCategories, author, categoryId))
  )
}

/** Column descending, ties account_idx ascending: a total order (no NaN among tracked accounts' values). */
function descendingBy({ accounts: a }: Snapshot, by: MentionersBy): (x: number, y: number) => number {
  const value = by === 'score' ? a.platformScore : a.followersCount
  return (x, y) => value[y] - value[x] || x - y
}
