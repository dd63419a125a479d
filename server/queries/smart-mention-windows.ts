/**
 * The windows of get_smart_mentions: per `days` of 1, 7 and 30, the target's smart mentions created in
 * [end − days, end] (`mentions`) and their distinct authors (`authors`; the unknown author -1 counts as one).
 *
 * Two ways to the same answer:
 * - the scan: the target's rows of the widest window (rows are newest first), authors counted with the per-snapshot
 *   marks: O(rows in the last 30 days);
 * - the index (`author_index.ts`), for targets with at least `INDEX_FROM_ROWS` (64) rows, built on first use and kept
 *   per snapshot: `mentions` is a binary search per window over the newest-first times; `authors` follows the older
 *   rows of the authors whose newest row is after the end (O(rows after the end)), then a binary search per window
 *   over the others' newest rows. It answers when the widest window has at least as many rows as there are after it.
 * Memory: 4 bytes per row + 8 per distinct author of the indexed targets (every target of the large scale with 64
 * rows or more: 2,162 targets, 1.56M rows, 15.5 MiB), no index started once a snapshot's smart-mention indexes hold
 * `MAX_INDEX_BYTES` (32 MiB, a budget of their own, apart from get_mentioners'): later targets are scanned.
 *
 * @example mentionWindows(snapshot, target, Date.now())
 *          // [{ days: 1, mentions: 12, authors: 9 }, { days: 7, ... }, { days: 30, mentions: 410, authors: 187 }]
 */
import type { Snapshot } from '../snapshot/types.ts'
import { DAY_MS } from '../params/dates.ts'
import { ALLOWED_DAYS } from '../params/windows.ts'
import { accountMarks } from '../internal/account_marks.ts'
import { firstOutside, INDEX_FROM_ROWS, keptAuthorIndexes, newestUpTo, rowsAfter } from '../internal/author_index.ts'

export interface MentionWindow {
  days: number
  mentions: number
  authors: number
}

/** Memory of a snapshot's kept smart-mention indexes: no index is started past it. */
const MAX_INDEX_BYTES = 32 * 2 ** 20

const indexes = keptAuthorIndexes({
  table: (snapshot) => snapshot.smartMentions,
  counts: () => true,
  fromRows: INDEX_FROM_ROWS,
  maxBytes: MAX_INDEX_BYTES,
})

/** The warm-up's part: indexes, most smart-mention rows first, within the budget. */
export const smartMentionsWarmer = {
  name: 'smart_mention_indexes',
  targets: (snapshot: Snapshot) => indexes.warmTargets(snapshot),
  build: (snapshot: Snapshot, target: number): boolean => indexes.warm(snapshot, target) !== null,
}

/** Whether the index answers the windows ending at `endMs` (else the scan); exported for tests. */
export function usesIndex(snapshot: Snapshot, target: number, endMs: number): boolean {
  const widest = ALLOWED_DAYS[ALLOWED_DAYS.length - 1]
  return indexes.usesIndex(snapshot.smartMentions, target, endMs - widest * DAY_MS, endMs)
}

/** The windows ending at `endMs` (inclusive, epoch milliseconds), from the index or by the scan (same answer). */
export function mentionWindows(snapshot: Snapshot, target: number, endMs: number): MentionWindow[] {
  return usesIndex(snapshot, target, endMs) ? indexedWindows(snapshot, target, endMs) : scannedWindows(snapshot, target, endMs)
}

/** Every row of the widest window (`mentionWindows`' other way, exported for tests). */
export function scannedWindows(snapshot: Snapshot, target: number, endMs: number): MentionWindow[] {
  const { smartMentions: mentions, tweets } = snapshot
  const windows = ALLOWED_DAYS.map((days) => ({ days, startMs: endMs - days * DAY_MS, mentions: 0, authors: 0 }))
  const widest = windows[windows.length - 1]
  // newest first: skip mentions after the end, stop at the first one before the widest window. An author's first
  // row met is its newest in the window, so it counts as an author in every window holding that row
  const seen = accountMarks(snapshot)
  let unknownSeen = false
  const last = mentions.offsets[target + 1]
  for (let r = rowsAfter(mentions, mentions.offsets[target], last, endMs); r < last; r++) {
    const ms = mentions.epochSeconds[r] * 1000
    if (ms < widest.startMs) break
    const author = tweets.authorIdx[mentions.tweetIdx[r]]
    // (an unknown author, -1, is one author)
    const newAuthor = author < 0 ? !unknownSeen : seen.marks[author] !== seen.stamp
    if (author < 0) unknownSeen = true
    else if (newAuthor) seen.marks[author] = seen.stamp
    for (const window of windows) {
      if (ms < window.startMs) continue
      window.mentions++
      if (newAuthor) window.authors++
    }
  }
  return windows.map(({ days, mentions, authors }) => ({ days, mentions, authors }))
}

/** From the kept index (`mentionWindows`' other way, exported for tests: answers every end). */
export function indexedWindows(snapshot: Snapshot, target: number, endMs: number): MentionWindow[] {
  const { smartMentions: mentions } = snapshot
  const index = indexes.index(snapshot, target)
  const first = mentions.offsets[target]
  const last = mentions.offsets[target + 1]
  const afterEnd = rowsAfter(mentions, first, last, endMs) - first
  // rows are newest first: a window's rows are those from `afterEnd` up to its `startRow`, the first one older than it
  const windows = ALLOWED_DAYS.map((days) => {
    const startRow = rowsAfter(mentions, first, last, endMs - days * DAY_MS - 1) - first
    return { days, startRow, mentions: startRow - afterEnd, authors: 0 }
  })
  // The authors whose newest row is after the end come first in newest order: their newest row up to the end
  // decides. The next ones are in a window up to the first whose newest row is before its start.
  let early = 0
  for (; early < index.authors.length && index.newestRow[early] < afterEnd; early++) {
    const row = newestUpTo(index, early, afterEnd)
    if (row === -1) continue
    for (const window of windows) if (row < window.startRow) window.authors++
  }
  for (const window of windows) {
    window.authors += firstOutside(index.newestRow, early, (row) => row < window.startRow) - early
  }
  return windows.map(({ days, mentions, authors }) => ({ days, mentions, authors }))
}
