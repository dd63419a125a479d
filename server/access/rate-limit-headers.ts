import type { Admission } from './types.ts'
import { PERIOD_MS, QUOTA_WINDOW_MS } from './plans.ts'

/** The policy name of the monthly quota in the headers; the rate policy is named after its bucket. */
const QUOTA_POLICY = 'monthly'

/**
 * The IETF `RateLimit-Policy` and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers-10): one policy for the
 * monthly quota and one for the bucket's rate, with quota `q`, window `w`, remaining `r` and seconds to reset `t`.
 * @example
 * rateLimitHeaders('api-get-alpha', admission, 2591990)
 * // RateLimit-Policy: "monthly";q=10000;w=2592000, "api-get-alpha";q=1000;w=60
 * // RateLimit: "monthly";r=9990;t=2591990, "api-get-alpha";r=998;t=42
 */
export function rateLimitHeaders(
  bucket: string,
  { quota, rate }: Pick<Admission, 'quota' | 'rate'>,
  quotaResetSeconds: number,
): Record<string, string> {
  const rateWindowSeconds = PERIOD_MS[rate.period] / 1000
  return {
    'RateLimit-Policy': `"${QUOTA_POLICY}";q=${quota.total};w=${QUOTA_WINDOW_MS / 1000}, "${bucket}";q=${rate.total};w=${rateWindowSeconds}`,
    RateLimit: `"${QUOTA_POLICY}";r=${quota.remaining};t=${quotaResetSeconds}, "${bucket}";r=${rate.remaining};t=${rate.resetSeconds}`,
  }
}
