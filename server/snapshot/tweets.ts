/**
 * The stored tweets, in parts by the day they were created on (`serving/tweets/period=YYYY-MM[-DD]/`, a closed month
 * or a week of the build date's month, written by pipeline/history-parts.ts; see docs/snapshot.md): the parts newest
 * first hold the tweets in the snapshot's order (created_at desc, tweet_id desc), so a tweet's `tweet_idx`, which
 * mentions refer to, is its part's first index plus its row in the part. The numbers are gathered into one array
 * each at load; the texts stay on disk, read from their part.
 *
 * @example const tweets = loadTweets(dir); tweets.text.at(tweets.tweetId.length - 1) // the oldest tweet's text
 */
import { SERVING_ARRAYS, type ColumnType } from '../../pipeline/serving-writer.ts'
import { partFolders } from './series-parts.ts'
import { openServingFiles, type ArrayOf, type Column } from './serving-files.ts'

export function loadTweets(snapshotDir: string) {
  const parts = partFolders(snapshotDir, 'tweets').map((folder) => openServingFiles(folder, 'part'))
  const texts = parts.map((part) => part.texts('text', 'disk'))
  /** the tweet_idx of each part's first row, then the number of tweets */
  const firsts = texts.reduce((at, t) => [...at, at.at(-1)! + t.length], [0])
  /** Column `name` of every part, back to back. */
  const gather = <T extends ColumnType>(name: string, type: T) => {
    const all = new SERVING_ARRAYS[type](firsts.at(-1)!) as ArrayOf<T>
    parts.forEach((part, k) => all.set(part.array(name, type) as never, firsts[k]))
    return all
  }
  return {
    tweetId: gather('tweet_id', 'u64'),
    authorId: gather('author_id', 'u64'),
    createdAtMs: gather('created_at_ms', 'f64'),
    /** null when the text is NULL; read from the tweet's part */
    text: {
      length: firsts.at(-1)!,
      at(row: number) {
        let k = texts.length - 1
        while (firsts[k] > row) k--
        return texts[k].at(row - firsts[k])
      },
    } satisfies Column<string | null>,
    favorites: gather('favorites', 'u32'),
    retweets: gather('retweets', 'u32'),
    replies: gather('replies', 'u32'),
    views: gather('views', 'u32'),
  }
}
