/**
 * The page of get_mentioners: distinct tracked authors of the target's mentions inside a window, ordered by score or
 * follower count (descending, ties account_idx ascending; ascending is that order reversed), with optional tag and
 * category filters, plus the total.
 *
 * @example mentionerPage(snapshot, target, { startMs, endMs, by: 'score', ascending: false, keep: null, request })
 *          // { total: 6981, authors: [account_idx of the 10 best-scored mentioners] }
 */
import TinyQueue from 'tinyqueue'
import { rowsInWindow } from './mentions.ts'
import { type PageRequest, pageRange } from '../params/page.ts'
import type { Snapshot } from '../snapshot/load.ts'

export interface MentionersQuery {
  /** Inclusive window bounds, epoch milliseconds. */
  startMs: number
  endMs: number
  by: 'score' | 'followers'
  ascending: boolean
  /** The authors' tag and category filter (`labelFilter`), null for none. */
  keep: ((idx: number) => boolean) | null
  request: PageRequest
}

/**
 * The page and total of `query`: `total` mentioners in the window after the filters, `authors` = account_idx of the
 * requested page, in order. An author is counted at its newest row in the window (the row whose next newer mention
 * by the same author is outside it); the authors are ordered by their places in the snapshot's `byScore` /
 * `byFollowers`, of which the first `page × size` are kept in a bounded heap (a window can hold 100,000 authors; a
 * page is 10).
 */
export function mentionerPage(snapshot: Snapshot, target: number, query: MentionersQuery) {
  const { mentions, accounts: a } = snapshot
  const { from, to } = rowsInWindow(mentions, target, query.startMs, query.endMs)
  const place = query.by === 'score' ? a.scorePlace : a.followersPlace
  const { page, size } = query.request
  const kept = page * size
  // ascending is the descending order reversed: the last places first; the heap's top is the last place kept
  const inOrder = query.ascending ? (x: number, y: number) => y - x : (x: number, y: number) => x - y
  const first = new TinyQueue<number>([], (x, y) => inOrder(y, x))
  let total = 0
  for (let r = from; r < to; r++) {
    if (mentions.newerSameAuthor[r] >= from) continue
    const author = mentions.authorIdx[r]
    if (author >= 0 && a.isTracked[author] && (!query.keep || query.keep(author))) {
      total++
      if (first.length < kept) first.push(place[author])
      else if (inOrder(place[author], first.peek()!) < 0) {
        first.pop()
        first.push(place[author])
      }
    }
  }
  const order = query.by === 'score' ? a.byScore : a.byFollowers
  const { start, end } = pageRange(query.request, total)
  return { total, authors: first.data.sort(inOrder).slice(start, end).map((p) => order[p]) }
}
