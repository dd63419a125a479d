/**
 * The registry: every operation of the API, by group. One file per operation in this folder; nothing is
 * discovered from the filesystem. The app and the OpenAPI document are built from this list.
 */
import type { Operation } from '../operation.ts'
import bulkScoresCheck from './bulk_scores_check.ts'
import followersCountHistory from './followers_count_history.ts'
import getCategories from './get_categories.ts'
import getCategorizedFollowersCount from './get_categorized_followers_count.ts'
import getFollowers from './get_followers.ts'
import getFollowersDiff from './get_followers_diff.ts'
import getFollowersScoreSum from './get_followers_score_sum.ts'
import limits from './limits.ts'

export const operations: Operation[] = [
  // Scores
  bulkScoresCheck,
  // Followers
  getFollowers,
  getFollowersScoreSum,
  getCategorizedFollowersCount,
  // Followers, History
  followersCountHistory,
  getFollowersDiff,
  // History
  // Lists
  // Mentions
  // Reference
  getCategories,
  limits,
]
