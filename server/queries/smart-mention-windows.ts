/**
 * The windows of get_smart_mentions: per `days` of 1, 7 and 30, the target's smart mentions created in
 * [end − days, end] (`mentions`) and their distinct authors (`authors`; the unknown author -1 counts as one).
 *
 * @example mentionWindows(snapshot, target, Date.now())
 *          // [{ days: 1, mentions: 12, authors: 9 }, { days: 7, ... }, { days: 30, mentions: 410, authors: 187 }]
 */
import type { Snapshot } from '../snapshot/types.ts'
import { DAY_MS } from '../params/dates.ts'
import { ALLOWED_DAYS } from '../params/windows.ts'
import { rowsInWindow } from './mentions.ts'

export interface MentionWindow {
  days: number
  mentions: number
  authors: number
}

/** The windows ending at `endMs` (inclusive, epoch milliseconds). */
export function mentionWindows(snapshot: Snapshot, target: number, endMs: number): MentionWindow[] {
  const { smartMentions: mentions, tweets } = snapshot
  return ALLOWED_DAYS.map((days) => {
    const { from, to } = rowsInWindow(mentions, target, endMs - days * DAY_MS, endMs)
    const authors = new Set<number>()
    for (let r = from; r < to; r++) authors.add(tweets.authorIdx[mentions.tweetIdx[r]])
    return { days, mentions: to - from, authors: authors.size }
  })
}
