/**
 * A target's distinct authors in a mention table (`mentions.parquet` or `smart_mentions.parquet`), kept per
 * snapshot for targets with enough rows (a threshold per user), answering "which authors mentioned the target in
 * [start, end]" without a scan of the window: the authors that count (a filter: get_mentioners keeps tracked ones,
 * get_smart_mentions every one, the unknown author -1 as one), ordered by the row of each one's newest mention of
 * the target, and per row the same author's next older row. An author is in a window when its newest row up to the
 * window's end is at or after the window's start: authors whose newest row is after the end follow their older rows
 * (`newestUpTo`, O(rows after the end)), the others come next in newest order and their newest row decides, so
 * they are a binary search (`firstOutside`).
 * Memory per indexed target: 4 bytes per row + 8 per distinct author, plus what the user adds (`grow`), and one
 * scratch array of 4 bytes per account for the builds, freed with the snapshot. Each user has its own budget: no
 * index is started once the table's indexes hold it, later targets are scanned.
 *
 * @example const all = keptAuthorIndexes({ table: (s) => s.smartMentions, counts: () => true, fromRows: INDEX_FROM_ROWS, maxBytes: 2 ** 25 })
 *          if (all.usesIndex(snapshot.smartMentions, target, startMs, endMs)) all.index(snapshot, target).newestRow
 */
import type { Mentions, Snapshot } from '../snapshot/types.ts'
import { accountMarks } from './account_marks.ts'

export interface AuthorIndex {
  /** account_idx of each distinct author (-1: the unknown author), by newest row. */
  authors: Int32Array
  /** Each author's newest row (target-relative): increasing. */
  newestRow: Int32Array
  /** Per target-relative row of an author that counts: that author's next older row, -1 for none. */
  olderRow: Int32Array
}

/**
 * The usual `fromRows`: targets with fewer rows are scanned. A page or window count from an index costs ~1 µs
 * whatever the target's size, a scan ~30 ns per row (measured for get_mentioners at the demo scale: 4.5 µs against
 * 0.9 µs for its 500 busiest targets, median 69 rows). At the large scale the indexes of every target above it fit
 * the budgets of both users (get_mentioners: 6,456 targets, 99 MiB with their `score` order).
 */
export const INDEX_FROM_ROWS = 64

export interface KeptAuthorIndexes {
  /** The index answers targets with enough rows, for windows with at least as many rows as there are after them. */
  usesIndex(mentions: Mentions, target: number, startMs: number, endMs: number): boolean
  /** The target's kept index, built on first use. */
  index(snapshot: Snapshot, target: number): AuthorIndex
  /** Counts `bytes` more held for the table's indexes (what a user keeps beside them). */
  grow(mentions: Mentions, bytes: number): void
  /** The targets worth an index, most rows first (the warm-up's order: the budget goes to the busiest). */
  warmTargets(snapshot: Snapshot): Int32Array
  /** Build the target's index ahead of requests; false once the budget is spent (nothing built). */
  warm(snapshot: Snapshot, target: number): AuthorIndex | null
}

export interface AuthorIndexOptions {
  /** The mention table of the snapshot. */
  table: (snapshot: Snapshot) => Mentions
  /** Whether an author's rows count (`author` -1: the unknown author). */
  counts: (snapshot: Snapshot, author: number) => boolean
  /** Targets with fewer rows are scanned. */
  fromRows: number
  /** No index is started once a table's indexes hold this many bytes. */
  maxBytes: number
}

export function keptAuthorIndexes({ table, counts, fromRows, maxBytes }: AuthorIndexOptions): KeptAuthorIndexes {
  const kept = new WeakMap<Mentions, { indexes: Map<number, AuthorIndex>; bytes: number }>()
  return {
    usesIndex(mentions, target, startMs, endMs) {
      const first = mentions.offsets[target]
      const last = mentions.offsets[target + 1]
      if (last - first < fromRows) return false
      // (a window ending now has no row after it: no search for its start here)
      const afterEnd = rowsAfter(mentions, first, last, endMs) - first
      if (afterEnd > 0 && afterEnd > rowsAfter(mentions, first, last, startMs - 1) - first - afterEnd) return false
      // a target not indexed yet gets its index while the table's indexes stay within the budget, else the scan
      const store = kept.get(mentions)
      return !store || store.indexes.has(target) || store.bytes < maxBytes
    },
    index(snapshot, target) {
      const mentions = table(snapshot)
      let store = kept.get(mentions)
      if (!store) kept.set(mentions, (store = { indexes: new Map(), bytes: 0 }))
      let index = store.indexes.get(target)
      if (!index) {
        index = buildIndex(snapshot, mentions, target, (author) => counts(snapshot, author))
        store.indexes.set(target, index)
        store.bytes += index.olderRow.byteLength + index.authors.byteLength + index.newestRow.byteLength
      }
      return index
    },
    grow(mentions, bytes) {
      kept.get(mentions)!.bytes += bytes
    },
    warmTargets(snapshot) {
      return busiestFirst(table(snapshot).offsets, fromRows)
    },
    warm(snapshot, target) {
      const store = kept.get(table(snapshot))
      if (store && !store.indexes.has(target) && store.bytes >= maxBytes) return null
      return this.index(snapshot, target)
    },
  }
}

/**
 * The targets of a CSR table (`offsets`) with at least `fromRows` rows, most rows first (ties: lower target first).
 * @example busiestFirst(snapshot.smartFollowers.offsets, 4096) // Int32Array [target with most followers, …]
 */
export function busiestFirst(offsets: Int32Array, fromRows: number): Int32Array {
  const targets: number[] = []
  for (let t = 0; t + 1 < offsets.length; t++) if (offsets[t + 1] - offsets[t] >= fromRows) targets.push(t)
  const rows = (t: number) => offsets[t + 1] - offsets[t]
  return Int32Array.from(targets.sort((a, b) => rows(b) - rows(a) || a - b))
}

function buildIndex(snapshot: Snapshot, mentions: Mentions, target: number, counts: (author: number) => boolean): AuthorIndex {
  const { tweets } = snapshot
  const first = mentions.offsets[target]
  const count = mentions.offsets[target + 1] - first
  const olderRow = new Int32Array(count).fill(-1)
  // oldest row first: each row of an author links to the one seen just before (older); `latest` ends at the newest
  // (the unknown author, -1, has no place in the per-account arrays: its rows are followed apart)
  const seen = accountMarks(snapshot)
  const latest = authorScratch(snapshot)
  let unknownLatest = -1
  for (let p = count - 1; p >= 0; p--) {
    const author = tweets.authorIdx[mentions.tweetIdx[first + p]]
    if (!counts(author)) continue
    if (author < 0) {
      olderRow[p] = unknownLatest
      unknownLatest = p
    } else {
      if (seen.marks[author] === seen.stamp) olderRow[p] = latest[author]
      else seen.marks[author] = seen.stamp
      latest[author] = p
    }
  }
  // newest row first: the authors in order of their newest rows
  const authorList: number[] = []
  const rowList: number[] = []
  for (let p = 0; p < count; p++) {
    const author = tweets.authorIdx[mentions.tweetIdx[first + p]]
    if (!counts(author) || (author < 0 ? unknownLatest : latest[author]) !== p) continue
    authorList.push(author)
    rowList.push(p)
  }
  return { authors: Int32Array.from(authorList), newestRow: Int32Array.from(rowList), olderRow }
}

/**
 * The first row in [first, last) (newest first) whose time is at or before `ms`: rows before it are after `ms`.
 * A window ending now has no row after it: that answer costs one read instead of a search (each of whose steps
 * misses the CPU's caches in a table of 100M rows).
 */
export function rowsAfter(mentions: Mentions, first: number, last: number, ms: number): number {
  if (first === last || mentions.epochSeconds[first] * 1000 <= ms) return first
  let low = first
  let high = last
  while (low < high) {
    const mid = (low + high) >>> 1
    if (mentions.epochSeconds[mid] * 1000 > ms) low = mid + 1
    else high = mid
  }
  return low
}

/**
 * The newest row, at or after `afterEnd` (target-relative, the first row up to the window's end), of the author at
 * `position`, -1 for none: its older rows followed from its newest.
 */
export function newestUpTo(index: AuthorIndex, position: number, afterEnd: number): number {
  let row = index.newestRow[position]
  while (row !== -1 && row < afterEnd) row = index.olderRow[row]
  return row
}

/** The first position ≥ `from` of the increasing `rows` (newest first) whose row is not `inWindow`: binary search. */
export function firstOutside(rows: Int32Array, from: number, inWindow: (row: number) => boolean): number {
  let low = from
  let high = rows.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (inWindow(rows[mid])) low = mid + 1
    else high = mid
  }
  return low
}

/** Scratch per account for index builds (the latest row seen, then a position): valid only within one build. */
const scratchOf = new WeakMap<Snapshot, Int32Array>()
export function authorScratch(snapshot: Snapshot): Int32Array {
  let rows = scratchOf.get(snapshot)
  if (!rows) scratchOf.set(snapshot, (rows = new Int32Array(snapshot.accounts.platformId.length)))
  return rows
}
