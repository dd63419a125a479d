import type { Admission, RateLimitHeaders } from './types.ts'
import { PERIOD_MS, QUOTA_WINDOW_MS, type Rate } from './plans.ts'

/** The policy name of the monthly quota in the headers; the rate policy is named after its bucket. */
const QUOTA_POLICY = 'monthly'

/**
 * The IETF `RateLimit-Policy` and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers-10): one policy for the
 * monthly quota and one for the bucket's rate, with quota `q`, window `w`, remaining `r` and seconds to reset `t`.
 * The policy only changes with the plan, so callers format it once with `rateLimitPolicy`.
 * @example
 * rateLimitHeaders(rateLimitPolicy('api-get-alpha', 10000, { total: 1000, period: 'minute' }), 'api-get-alpha', admission.quota, admission.rate, 2591990)
 * // RateLimit-Policy: "monthly";q=10000;w=2592000, "api-get-alpha";q=1000;w=60
 * // RateLimit: "monthly";r=9990;t=2591990, "api-get-alpha";r=998;t=42
 */
export function rateLimitHeaders(
  policy: string,
  bucket: string,
  quota: Pick<Admission['quota'], 'remaining'>,
  rate: Pick<Admission['rate'], 'remaining' | 'resetSeconds'>,
  quotaResetSeconds: number,
): RateLimitHeaders {
  return {
    'RateLimit-Policy': policy,
    RateLimit: `"${QUOTA_POLICY}";r=${quota.remaining};t=${quotaResetSeconds}, "${bucket}";r=${rate.remaining};t=${rate.resetSeconds}`,
  }
}

/** The `RateLimit-Policy` value of a plan in one bucket. */
export function rateLimitPolicy(bucket: string, monthlyQuota: number, rate: Rate): string {
  return `"${QUOTA_POLICY}";q=${monthlyQuota};w=${QUOTA_WINDOW_MS / 1000}, "${bucket}";q=${rate.total};w=${PERIOD_MS[rate.period] / 1000}`
}
