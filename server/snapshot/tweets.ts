/**
 * The stored tweets, in parts by the day they were created on (`serving/tweets/period=YYYY-MM-DD/`, a week, or
 * `period=YYYY-MM`, a whole month; see docs/snapshot.md): the parts newest first hold the tweets
 * in the snapshot's order (created_at desc, tweet_id desc), so a tweet's `tweet_idx` is its part's first index plus
 * its row in the part. The numbers are gathered into one array each at load, with each tweet's author and mentioned
 * accounts as account_idx (pipeline/account-refs.ts); the texts stay on disk, read from their part.
 *
 * @example const tweets = await loadTweets(dir); tweets.text.at(tweets.tweetId.length - 1) // the oldest tweet's text
 */
import path from 'node:path'
import { SERVING_ARRAYS, type ColumnType } from '../../pipeline/serving-writer.ts'
import { partFolders } from './series-parts.ts'
import { openServingFiles, type ArrayOf, type Column } from './serving-files.ts'

export async function loadTweets(snapshotDir: string) {
  const parts = partFolders(snapshotDir, 'tweets').map((folder) => openServingFiles(folder, 'part'))
  const texts = await Promise.all(parts.map((part) => part.texts('text', 'disk')))
  /** the tweet_idx of each part's first row, then the number of tweets */
  const firsts = texts.reduce((at, t) => [...at, at.at(-1)! + t.length], [0])
  /** Column `name` of every part, back to back (each part's values through `map`). */
  const gather = async <T extends ColumnType>(name: string, type: T, map = (values: ArrayOf<T>, _part: number) => values) => {
    // one part's values at a time beside the whole column
    const all = new SERVING_ARRAYS[type](parts.reduce((n, part) => n + part.length(name), 0)) as ArrayOf<T>
    for (let k = 0, at = 0; k < parts.length; at += parts[k++].length(name)) all.set(map(await parts[k].array(name, type), k) as never, at)
    return all
  }
  // the account_idx of each part's `ids` (-1: none), the parts' back to back: a part's references index its own
  const accountIdx = await openServingFiles(path.join(snapshotDir, 'serving', 'tweets_accounts'), 'part').array('account_idx', 'i32')
  const firstIds = parts.reduce((at, part) => [...at, at.at(-1)! + part.length('ids')], [0])
  if (firstIds.at(-1) !== accountIdx.length) throw new Error(`${snapshotDir}: serving/tweets_accounts does not match the tweets parts' ids`)
  const accounts = (locals: Int32Array, k: number) => locals.map((local) => accountIdx[firstIds[k] + local])
  return {
    tweetId: await gather('tweet_id', 'u64'),
    authorId: await gather('author_id', 'u64'),
    /** the author's account_idx, -1 when in no account table */
    authorIdx: await gather('author', 'i32', accounts),
    createdAtMs: await gather('created_at_ms', 'f64'),
    /** null when the text is NULL; read from the tweet's part */
    text: {
      length: firsts.at(-1)!,
      at(row: number) {
        let k = texts.length - 1
        while (firsts[k] > row) k--
        return texts[k].at(row - firsts[k])
      },
    } satisfies Column<string | null>,
    favorites: await gather('favorites', 'u32'),
    retweets: await gather('retweets', 'u32'),
    replies: await gather('replies', 'u32'),
    views: await gather('views', 'u32'),
    /** the accounts each tweet mentions (account_idx, -1 for none): `count[t]` of `accountIdx`, tweet after tweet;
     * read once, by mentions.ts */
    mentioned: { count: await gather('mentioned.count', 'i32'), accountIdx: await gather('mentioned', 'i32', accounts) },
  }
}
