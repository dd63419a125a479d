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

/**
 * The page and total of `query`. An author is counted at its newest row in the window (the row whose next newer
 * mention by the same author is outside it); the authors are put in order by their places in the snapshot's
 * `byScore` / `byFollowers`, which sort as plain numbers.
 */
export function mentionerPage(snapshot: Snapshot, target: number, query: MentionersQuery): MentionersPage {
  const { mentions, accounts: a } = snapshot
  const { from, to } = rowsInWindow(mentions, target, query.startMs, query.endMs)
  const place = query.by === 'score' ? a.scorePlace : a.followersPlace
  const places: number[] = []
  for (let r = from; r < to; r++) {
    if (mentions.newerSameAuthor[r] >= from) continue
    const author = mentions.authorIdx[r]
    if (author >= 0 && a.isTracked[author] && passesFilters(snapshot, author, query)) places.push(place[author])
  }
  const sorted = Int32Array.from(places).sort()
  const order = query.by === 'score' ? a.byScore : a.byFollowers
  const { start, end } = pageRange(query.request, sorted.length)
  const authors: number[] = []
  for (let k = start; k < end; k++) authors.push(order[sorted[query.ascending ? sorted.length - 1 - k : k]])
  return { total: sorted.length, authors }
}

/** The author carries the tag and the category asked for (each when asked). */
function passesFilters(snapshot: Snapshot, author: number, { tagId, categoryId }: MentionersQuery): boolean {
  return (
    (tagId === null || hasLabel(snapshot.accountTags, author, tagId)) &&
    (categoryId === null || hasLabel(snapshot.accountCategories, author, categoryId))
  )
}
