import type { RateLimitHeaders } from './types.ts'
import { PERIOD_MS, QUOTA_WINDOW_MS, type Rate } from './plans.ts'

/** The policy name of the monthly quota in the headers; the rate policy is named after its bucket. */
const QUOTA_POLICY = 'monthly'

/**
 * The IETF `RateLimit-Policy` and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers-10) of a plan in one
 * bucket: one policy for the monthly quota and one for the bucket's rate, with quota `q`, window `w`, remaining `r`
 * and seconds to reset `t`. The policy and the fixed parts of `RateLimit` are formatted once per plan and bucket.
 * Field names are in lower case, as they are sent anyway (srvx lower-cases every response field name).
 * @example
 * const format = new RateLimitFormat('api-get-alpha', 10000, { total: 1000, period: 'minute' })
 * format.headers(9990, 2591990, 998, 42)
 * // ratelimit-policy: "monthly";q=10000;w=2592000, "api-get-alpha";q=1000;w=60
 * // ratelimit: "monthly";r=9990;t=2591990, "api-get-alpha";r=998;t=42
 */
export class RateLimitFormat {
  readonly policy: string
  /** What comes between the quota's reset seconds and the rate's remaining calls in `RateLimit`. */
  private readonly rateItem: string

  constructor(bucket: string, monthlyQuota: number, rate: Rate) {
    this.policy = `"${QUOTA_POLICY}";q=${monthlyQuota};w=${QUOTA_WINDOW_MS / 1000}, "${bucket}";q=${rate.total};w=${PERIOD_MS[rate.period] / 1000}`
    this.rateItem = `, "${bucket}";r=`
  }

  /** The two fields, from the calls remaining and the seconds to reset of the quota, then of the rate. */
  headers(quotaRemaining: number, quotaResetSeconds: number, rateRemaining: number, rateResetSeconds: number): RateLimitHeaders {
    return {
      'ratelimit-policy': this.policy,
      ratelimit: `"${QUOTA_POLICY}";r=${quotaRemaining};t=${quotaResetSeconds}${this.rateItem}${rateRemaining};t=${rateResetSeconds}`,
    }
  }
}
