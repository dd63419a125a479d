import type { RateLimitHeaders } from './types.ts'
import { PERIOD_MS, QUOTA_WINDOW_MS, type Rate } from './plans.ts'

/** The policy name of the monthly quota in the headers; the rate policy is named after its bucket. */
const QUOTA_POLICY = 'monthly'

/**
 * The IETF `RateLimit-Policy` and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers-10) of a plan in one
 * bucket: one policy for the monthly quota and one for the bucket's rate, with quota `q`, window `w`, remaining `r`
 * and seconds to reset `t`.
 * @example
 * rateLimitHeaders('api-get-alpha', 10000, { total: 1000, period: 'minute' },
 *   { quotaRemaining: 9990, quotaResetSeconds: 2591990, rateRemaining: 998, rateResetSeconds: 42 })
 * // ratelimit-policy: "monthly";q=10000;w=2592000, "api-get-alpha";q=1000;w=60
 * // ratelimit: "monthly";r=9990;t=2591990, "api-get-alpha";r=998;t=42
 */
export function rateLimitHeaders(
  bucket: string,
  monthlyQuota: number,
  rate: Rate,
  state: { quotaRemaining: number; quotaResetSeconds: number; rateRemaining: number; rateResetSeconds: number },
): RateLimitHeaders {
  return {
    'ratelimit-policy': `"${QUOTA_POLICY}";q=${monthlyQuota};w=${QUOTA_WINDOW_MS / 1000}, "${bucket}";q=${rate.total};w=${PERIOD_MS[rate.period] / 1000}`,
    ratelimit: `"${QUOTA_POLICY}";r=${state.quotaRemaining};t=${state.quotaResetSeconds}, "${bucket}";r=${state.rateRemaining};t=${state.rateResetSeconds}`,
  }
}
