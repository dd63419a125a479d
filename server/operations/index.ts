/**
 * The registry: every operation of the API, by group. One file per operation in this folder; nothing is
 * discovered from the filesystem. The app and the OpenAPI document are built from this list.
 */
import type { Operation } from './define.ts'
import bulkScoresCheck from './bulk-scores-check.ts'
import followersCountHistory from './followers-count-history.ts'
import friendshipHistoryFollowed from './friendship-history-followed.ts'
import friendshipHistoryFollowing from './friendship-history-following.ts'
import getAlpha from './get-alpha.ts'
import getCategories from './get-categories.ts'
import getCategoriesList from './get-categories-list.ts'
import getCategorizedFollowersCount from './get-categorized-followers-count.ts'
import getFollowers from './get-followers.ts'
import getFollowersDiff from './get-followers-diff.ts'
import getFollowersScoreSum from './get-followers-score-sum.ts'
import getMentioners from './get-mentioners.ts'
import getMentionsFeed from './get-mentions-feed.ts'
import getPlatformInfo from './get-platform-info.ts'
import getPlatformScore from './get-platform-score.ts'
import getPlatformScoresDiff from './get-platform-scores-diff.ts'
import getPlatformTopFollowers from './get-platform-top-followers.ts'
import getScoreDiff from './get-score-diff.ts'
import getScoreExplanation from './get-score-explanation.ts'
import getScoreHistory from './get-score-history.ts'
import getSmartFollows from './get-smart-follows.ts'
import getSmartMentions from './get-smart-mentions.ts'
import getSmartMentionsFeed from './get-smart-mentions-feed.ts'
import getTagCategories from './get-tag-categories.ts'
import getTags from './get-tags.ts'
import getTagsList from './get-tags-list.ts'
import getTopResearched from './get-top-researched.ts'
import getTrending from './get-trending.ts'
import limits from './limits.ts'

export const operations: Operation[] = [
  /* Scores */ bulkScoresCheck, getPlatformScore, getScoreExplanation,
  /* Scores, History */ getScoreHistory, getScoreDiff, getPlatformScoresDiff,
  /* Accounts */ getPlatformInfo,
  /* Followers */ getFollowers, getFollowersScoreSum, getCategorizedFollowersCount, getPlatformTopFollowers,
  /* Followers, History */ followersCountHistory, getFollowersDiff,
  /* History */ friendshipHistoryFollowed, friendshipHistoryFollowing,
  /* Lists */ getSmartFollows, getAlpha, getTrending, getTopResearched,
  /* Mentions */ getMentioners, getMentionsFeed, getSmartMentions, getSmartMentionsFeed,
  /* Reference */ getCategories, getCategoriesList, getTagsList, getTags, getTagCategories, limits,
]
