/**
 * The windows of get_smart_mentions: per `days` of 1, 7 and 30, the target's smart mentions created in
 * [end − days, end] (`mentions`) and their distinct authors (`authors`; the unknown author -1 counts as one).
 *
 * @example mentionWindows(snapshot, target, Date.now())
 *          // [{ days: 1, mentions: 12, authors: 9 }, { days: 7, ... }, { days: 30, mentions: 410, authors: 187 }]
 */
import type { Snapshot } from '../snapshot/load.ts'
import { DAY_MS } from '../params/dates.ts'
import { ALLOWED_DAYS } from '../params/windows.ts'
import { rowsInWindow } from './mentions.ts'

/** The windows ending at `endMs` (inclusive, epoch milliseconds). */
export function mentionWindows(snapshot: Snapshot, target: number, endMs: number) {
  const mentions = snapshot.smartMentions
  return ALLOWED_DAYS.map((days) => {
    const { from, to } = rowsInWindow(mentions, target, endMs - days * DAY_MS, endMs)
    // an author counts once, at its newest row in the window
    let authors = 0
    for (let r = from; r < to; r++) if (mentions.newerSameAuthor[r] < from) authors++
    return { days, mentions: to - from, authors }
  })
}
