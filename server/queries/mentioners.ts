/**
 * The page of get_mentioners: distinct tracked authors of the target's mentions inside a window, ordered by score or
 * follower count (descending, ties account_idx ascending; ascending is that order reversed), with optional tag and
 * category filters, plus the total.
 *
 * Two ways to the same answer:
 * - the scan: the target's mention rows inside the window (found by binary search; rows are newest first), authors
 *   deduplicated, filtered, and the rows up to the page put in order: O(rows in the window);
 * - the index (`author_index.ts`), for targets with at least `INDEX_FROM_ROWS` mention rows, built on first use and
 *   kept per snapshot: the target's distinct tracked authors by the row of each one's newest mention of it, per row
 *   the author's next older row, and each `by` order asked for. An author is in a window when its newest row up to
 *   the window's end is at or after the window's start: authors whose newest row is after the end follow their
 *   older rows (O(rows after the end)), for the others the newest row decides, and those come in newest order, so
 *   the total is a binary search. Without filters the page is a walk of the kept `by` order from the requested end
 *   that stops once the page is full; with filters (the total counts every match), or when that walk would be long,
 *   the window's authors are collected as their places in the `by` order, which sort as plain numbers. The index
 *   answers when the window has at least as many rows as there are after it (rolling `days` windows, ranges up to
 *   today); ranges further in the past scan.
 * Memory per indexed target: 4 bytes per mention row + 8 per distinct tracked author, plus 12 per author for each
 * `by` order asked for (≤ 36 bytes per mention row of the indexed targets), and one scratch array of 4 bytes per
 * account for the builds, freed with the snapshot. No index is started once a snapshot's indexes hold
 * `MAX_INDEX_BYTES` (112 MiB: at the large scale, every target with ≥ 64 rows with its `score` order): later targets
 * are scanned.
 *
 * @example mentionerPage(snapshot, target, { startMs, endMs, by: 'score', ascending: false, tagId: null, categoryId: null, request })
 *          // { total: 6981, authors: [account_idx of the 10 best-scored mentioners] }
 */
import { hasLabel } from './labels.ts'
import { type PageRequest, pageRange } from '../params/page.ts'
import type { Mentions, Snapshot } from '../snapshot/types.ts'
import { accountMarks } from '../internal/account_marks.ts'
import {
  type AuthorIndex,
  authorScratch,
  firstOutside,
  INDEX_FROM_ROWS,
  keptAuthorIndexes,
  newestUpTo,
  rowsAfter,
} from '../internal/author_index.ts'
import { firstInOrder } from '../internal/first_in_order.ts'
import { transientArray } from '../internal/transient.ts'

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

/** The page and total of `query`, from the index or by the scan (same answer). */
export function mentionerPage(snapshot: Snapshot, target: number, query: MentionersQuery): MentionersPage {
  return usesIndex(snapshot.mentions, target, query.startMs, query.endMs)
    ? indexedPage(snapshot, target, query)
    : scannedPage(snapshot, target, query)
}

/**
 * Memory of the kept indexes per snapshot: no index is started past it (targets without one are scanned), so they
 * stay within about this much plus the `by` orders of the targets already indexed.
 */
const MAX_INDEX_BYTES = 112 * 2 ** 20

const indexes = keptAuthorIndexes({
  table: (snapshot) => snapshot.mentions,
  counts: (snapshot, author) => author >= 0 && snapshot.accounts.isTracked[author] === 1,
  fromRows: INDEX_FROM_ROWS,
  maxBytes: MAX_INDEX_BYTES,
})

/** The index answers targets with enough rows, for windows with at least as many rows as there are after them. */
export const usesIndex = indexes.usesIndex

/**
 * The warm-up's part: indexes with the default `score` order (the `followers` one is built on first use), within
 * the budget, for the targets most likely asked about: the most looked-up accounts of the last 30 days
 * (`top_researched`, yesterday's demand) first, then by smart followers: when the budget cannot hold them all, it
 * holds those (at the large scale, all 6456 candidates fit, with their `score` order: 99 MiB).
 */
export const mentionersWarmer = {
  name: 'mentioner_indexes',
  targets: (snapshot: Snapshot) => likelyAskedFirst(snapshot, indexes.warmTargets(snapshot)),
  build(snapshot: Snapshot, target: number): boolean {
    const index = indexes.warm(snapshot, target)
    if (!index) return false
    authorOrder(snapshot, index, 'score')
    return true
  },
}

/**
 * `candidates` reordered: the 30-day top researched in their order, then the others by smart followers (desc, then
 * account_idx); exported for tests.
 */
export function likelyAskedFirst(snapshot: Snapshot, candidates: Int32Array): Int32Array {
  const isCandidate = new Set(candidates)
  const researched = [...(snapshot.topResearched.get(30)?.accountIdx ?? [])].filter((idx) => isCandidate.has(idx))
  const first = new Set(researched)
  const smart = snapshot.accounts.smartFollowersCount
  const rest = [...candidates].filter((idx) => !first.has(idx)).sort((a, b) => smart[b] - smart[a] || a - b)
  return Int32Array.from([...researched, ...rest])
}

/** Every row of the window (`mentionerPage`'s other way, exported for tests). */
export function scannedPage(snapshot: Snapshot, target: number, query: MentionersQuery): MentionersPage {
  const { mentions, tweets, accounts: a } = snapshot
  // the target's mentions are newest first: skip those after the window, stop at the first one before it
  const seen = accountMarks(snapshot)
  const authors: number[] = []
  const last = mentions.offsets[target + 1]
  for (let r = rowsAfter(mentions, mentions.offsets[target], last, query.endMs); r < last; r++) {
    if (mentions.epochSeconds[r] * 1000 < query.startMs) break
    const author = tweets.authorIdx[mentions.tweetIdx[r]]
    if (author < 0 || !a.isTracked[author] || seen.marks[author] === seen.stamp) continue
    seen.marks[author] = seen.stamp
    authors.push(author)
  }
  return orderedPage(snapshot, authors, query)
}

/** The page among the window's distinct `authors` (any order; reordered in place): the filters, then the order. */
function orderedPage(snapshot: Snapshot, authors: number[], query: MentionersQuery): MentionersPage {
  if (query.tagId !== null || query.categoryId !== null) {
    let kept = 0
    for (const author of authors) if (passesFilters(snapshot, author, query)) authors[kept++] = author
    authors.length = kept
  }
  // only the rows up to the requested page are put in order
  const descending = descendingBy(snapshot, query.by)
  const { start, end } = pageRange(query.request, authors.length)
  const page = firstInOrder(authors, end, query.ascending ? (x, y) => descending(y, x) : descending).slice(start)
  return { total: authors.length, authors: page }
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

/**
 * One `by` order (descending) of an index's authors: what a page walks in that order, side by side, and each
 * author's place in it. A page reads consecutive memory, not the author's and its newest row's slots of the
 * newest-first order (two cache misses per author walked, at the large scale).
 */
interface AuthorOrder {
  /** Per place of the `by` order: the author's newest row (`2 × place`) and the author (`2 × place + 1`). */
  byPlace: Int32Array
  /** `places[position]` = the place of the author at that newest-order position. */
  places: Int32Array
}

/** Per kept index, its `by` orders (descending), built on first use per `by`. */
const ordersOf = new WeakMap<AuthorIndex, Map<MentionersBy, AuthorOrder>>()

function authorOrder(snapshot: Snapshot, index: AuthorIndex, by: MentionersBy): AuthorOrder {
  let orders = ordersOf.get(index)
  if (!orders) ordersOf.set(index, (orders = new Map()))
  let order = orders.get(by)
  if (order) return order
  const sorted = index.authors.slice().sort(descendingBy(snapshot, by))
  const positionOf = authorScratch(snapshot)
  for (let position = 0; position < index.authors.length; position++) positionOf[index.authors[position]] = position
  const byPlace = new Int32Array(2 * sorted.length)
  const places = new Int32Array(sorted.length)
  for (let place = 0; place < sorted.length; place++) {
    const position = positionOf[sorted[place]]
    byPlace[2 * place] = index.newestRow[position]
    byPlace[2 * place + 1] = sorted[place]
    places[position] = place
  }
  order = { byPlace, places }
  orders.set(by, order)
  indexes.grow(snapshot.mentions, byPlace.byteLength + places.byteLength)
  return order
}

/** From the kept index (`mentionerPage`'s other way, exported for tests: answers every window). */
export function indexedPage(snapshot: Snapshot, target: number, query: MentionersQuery): MentionersPage {
  const { mentions } = snapshot
  const index = indexes.index(snapshot, target)
  const { startMs, request } = query
  const first = mentions.offsets[target]
  const last = mentions.offsets[target + 1]
  const afterEnd = rowsAfter(mentions, first, last, query.endMs) - first
  // rows are newest first: those before the first one older than the window's start (`startRow`) are at or after
  // it. (Tests of `row < startRow` are written out: a named closure costs a call to `Object.defineProperty` per
  // request under tsx, which keeps function names.)
  const startRow = rowsAfter(mentions, first, last, startMs - 1) - first
  // The authors whose newest row is after the window's end come first in newest order; those with an older row in
  // the window are collected and marked. The next ones, up to the first whose newest row is before the window's
  // start, have their newest row in it.
  const marked = accountMarks(snapshot)
  const earlyIn: number[] = []
  let early = 0
  for (; early < index.authors.length && index.newestRow[early] < afterEnd; early++) {
    const row = newestUpTo(index, early, afterEnd)
    if (row === -1 || row >= startRow) continue
    marked.marks[index.authors[early]] = marked.stamp
    earlyIn.push(early)
  }
  const late = firstOutside(index.newestRow, early, (row) => row < startRow)
  const order = authorOrder(snapshot, index, query.by)
  const n = index.authors.length
  const filtered = query.tagId !== null || query.categoryId !== null
  const total = earlyIn.length + late - early
  const { start, end } = pageRange(request, total)
  const page: number[] = []
  // Without filters, the `by` order walked from the requested end finds the page after ~end × n / total places.
  if (!filtered && end * n <= 4 * total * total) {
    const { byPlace } = order
    for (let i = 0, matched = 0; i < n && page.length < end - start; i++) {
      const place = query.ascending ? n - 1 - i : i
      const row = byPlace[2 * place]
      const author = byPlace[2 * place + 1]
      const counts = row < afterEnd ? marked.marks[author] === marked.stamp : row < startRow
      if (counts && matched++ >= start) page.push(author)
    }
    return { total, authors: page }
  }
  // Otherwise (and with filters, since `total` counts every match) the window's authors that pass are collected as
  // places in the `by` order, which sort as numbers.
  const places = transientArray(Int32Array, total)
  let kept = 0
  const keep = (position: number) => {
    if (!filtered || passesFilters(snapshot, index.authors[position], query)) places[kept++] = order.places[position]
  }
  for (const position of earlyIn) keep(position)
  for (let position = early; position < late; position++) keep(position)
  const sorted = places.subarray(0, kept).sort()
  const range = pageRange(request, kept)
  for (let k = range.start; k < range.end; k++) {
    page.push(order.byPlace[2 * sorted[query.ascending ? kept - 1 - k : k] + 1])
  }
  return { total: kept, authors: page }
}
