/**
 * The registry: every operation of the API, by group. One file per operation in this folder; nothing is
 * discovered from the filesystem. The app and the OpenAPI document are built from this list.
 */
import type { Operation } from '../operation.ts'
import bulkScoresCheck from './bulk_scores_check.ts'
import followersCountHistory from './followers_count_history.ts'
import friendshipHistoryFollowed from './friendship_history_followed.ts'
import friendshipHistoryFollowing from './friendship_history_following.ts'
import getAlpha from './get_alpha.ts'
import getCategories from './get_categories.ts'
import getCategoriesList from './get_categories_list.ts'
import getCategorizedFollowersCount from './get_categorized_followers_count.ts'
import getFollowers from './get_followers.ts'
import getFollowersDiff from './get_followers_diff.ts'
import getFollowersScoreSum from './get_followers_score_sum.ts'
import getMentioners from './get_mentioners.ts'
import getMentionsFeed from './get_mentions_feed.ts'
import getPlatformInfo from './get_platform_info.ts'
import getPlatformScore from './get_platform_score.ts'
import getScoreDiff from './get_score_diff.ts'
import getScoreHistory from './get_score_history.ts'
import getSmartFollows from './get_smart_follows.ts'
import getSmartMentions from './get_smart_mentions.ts'
import getSmartMentionsFeed from './get_smart_mentions_feed.ts'
import getTagCategories from './get_tag_categories.ts'
import getTags from './get_tags.ts'
import getTagsList from './get_tags_list.ts'
import getTopResearched from './get_top_researched.ts'
import getTrending from './get_trending.ts'
import limits from './limits.ts'

export const operations: Operation[] = [
  // Scores
  bulkScoresCheck,
  getPlatformScore,
  // Scores, History
  getScoreHistory,
  getScoreDiff,
  // Accounts
  getPlatformInfo,
  // Followers
  getFollowers,
  getFollowersScoreSum,
  getCategorizedFollowersCount,
  // Followers, History
  followersCountHistory,
  getFollowersDiff,
  // History
  friendshipHistoryFollowed,
  friendshipHistoryFollowing,
  // Lists
  getSmartFollows,
  getAlpha,
  getTrending,
  getTopResearched,
  // Mentions
  getMentioners,
  getMentionsFeed,
  getSmartMentions,
  getSmartMentionsFeed,
  // Reference
  getCategories,
  getCategoriesList,
  getTagsList,
  getTags,
  getTagCategories,
  limits,
]
