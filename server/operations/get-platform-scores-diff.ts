/**
 * GET /api/v1/get_platform_scores_diff — the name clients of the original API call for `get_score_diff`: the same
 * parameters, response and handler under its own name, so it has its own rate-limit bucket
 * (`api-get-platform-scores-diff`) and its own response-cache entries.
 */
import { defineOperation } from './define.ts'
import getScoreDiff from './get-score-diff.ts'

export default defineOperation({
  ...getScoreDiff,
  name: 'get_platform_scores_diff',
  summary: `The original API's name of \`get_score_diff\` (identical parameters and response). ${getScoreDiff.summary}`,
})
