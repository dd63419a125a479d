/**
 * The mentions of each account, built at load from the tweets (tweets.ts): a row per (mentioned account, tweet),
 * grouped by the mentioned account (CSR: its rows are `offsets[a] .. offsets[a + 1] - 1`), each account's rows newest
 * first (by tweet_idx). Self-mentions are left out by the build. `keep` picks the rows by their author (the smart
 * mentions: a smart author). The same rows as the `mentions` and `smart_mentions` views (pipeline/snapshot-sql.ts).
 *
 * @example const smart = mentionsOf(tweets, accounts.count, (author) => author >= 0 && accounts.isSmart[author] === 1)
 */
import type { loadTweets } from './tweets.ts'

type Tweets = Pick<Awaited<ReturnType<typeof loadTweets>>, 'authorIdx' | 'createdAtMs' | 'mentioned'>

export function mentionsOf(tweets: Tweets, accounts: number, keep: (author: number) => boolean) {
  const { count, accountIdx: targets } = tweets.mentioned
  const each = (visit: (target: number, tweet: number) => void) => {
    for (let t = 0, e = 0; t < count.length; e += count[t++]) {
      if (keep(tweets.authorIdx[t])) for (let m = e; m < e + count[t]; m++) if (targets[m] >= 0) visit(targets[m], t)
    }
  }
  const offsets = new Int32Array(accounts + 1)
  each((target) => offsets[target + 1]++)
  for (let a = 0; a < accounts; a++) offsets[a + 1] += offsets[a]
  const tweetIdx = new Int32Array(offsets[accounts])
  const next = offsets.slice(0, accounts)
  each((target, tweet) => (tweetIdx[next[target]++] = tweet))
  const authorIdx = tweetIdx.map((tweet) => tweets.authorIdx[tweet])
  // each row's next newer row of the same target and author (-1 for none; authors outside the tables count as one)
  const newerSameAuthor = new Int32Array(tweetIdx.length)
  const [lastTarget, lastRow] = [new Int32Array(accounts + 1).fill(-1), new Int32Array(accounts + 1)]
  for (let target = 0; target < accounts; target++) {
    for (let row = offsets[target]; row < offsets[target + 1]; row++) {
      const author = authorIdx[row] < 0 ? accounts : authorIdx[row]
      newerSameAuthor[row] = lastTarget[author] === target ? lastRow[author] : -1
      lastTarget[author] = target
      lastRow[author] = row
    }
  }
  /** the tweets' creation times (by tweet_idx): a row's is `createdAtMs[tweetIdx[row]]` */
  return { offsets, tweetIdx, authorIdx, newerSameAuthor, createdAtMs: tweets.createdAtMs }
}
