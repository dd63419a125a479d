/**
 * GET /api/v1/get_smart_mentions — how often smart authors (monitored, active, not suspended) mentioned the target
 * in the last 1, 7 and 30 days back from the request time: tweets and distinct authors per window.
 */
import { accountMarks } from '../internal/account_marks.ts'
import { defineOperation } from '../operation.ts'
import { accountParameters, resolveAccount } from '../rules/account.ts'
import { DAY_MS } from '../rules/dates.ts'
import { ALLOWED_DAYS } from '../rules/windows.ts'
import { array, id, integer, object, string } from '../schema.ts'

export default defineOperation({
  name: 'get_smart_mentions',
  groups: ['Mentions'],
  summary:
    'Mentions of the target by smart authors (self-mentions excluded) in the rolling 1, 7 and 30 days back from the request time: tweets and distinct authors.',
  parameters: accountParameters('fallback'),
  response: object({
    success: { const: true },
    platform_id: id(),
    username: string(),
    windows: {
      ...array(
        object({
          days: integer({ enum: [...ALLOWED_DAYS] }),
          mentions: integer({ minimum: 0 }),
          authors: integer({ minimum: 0 }),
        }),
      ),
      minItems: ALLOWED_DAYS.length,
      maxItems: ALLOWED_DAYS.length,
    },
  }),
  cache: 'default',
  handle({ query, snapshot, now }) {
    const target = resolveAccount(snapshot, query, 'fallback')
    const { smartMentions: mentions, tweets, accounts: a } = snapshot
    const endMs = now.getTime()
    const windows = ALLOWED_DAYS.map((days) => ({ days, startMs: endMs - days * DAY_MS, mentions: 0, authors: 0 }))
    const widest = windows[windows.length - 1]
    // newest first: skip mentions after the request time, stop at the first one before the widest window. An
    // author's first row met is its newest in the window, so it counts as an author in every window holding that row
    const seen = accountMarks(snapshot)
    let unknownSeen = false
    for (let r = mentions.offsets[target]; r < mentions.offsets[target + 1]; r++) {
      const ms = mentions.epochSeconds[r] * 1000
      if (ms > endMs) continue
      if (ms < widest.startMs) break
      const author = tweets.authorIdx[mentions.tweetIdx[r]]
      // (an unknown author, -1, is one author, as it was in a Set)
      const newAuthor = author < 0 ? !unknownSeen : seen.marks[author] !== seen.stamp
      if (author < 0) unknownSeen = true
      else if (newAuthor) seen.marks[author] = seen.stamp
      for (const window of windows) {
        if (ms < window.startMs) continue
        window.mentions++
        if (newAuthor) window.authors++
      }
    }
    return {
      success: true,
      platform_id: a.platformId[target],
      username: a.username[target],
      windows: windows.map((w) => ({ days: w.days, mentions: w.mentions, authors: w.authors })),
    }
  },
})
