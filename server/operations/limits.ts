/** GET /api/v1/limits — the caller's monthly quota and per-period rate. Never cached; the body has no `success` key. */
import { ApiError } from '../errors.ts'
import { defineOperation } from './define.ts'
import { naiveLocalIsoMillis } from '../params/dates.ts'
import { integer, object, string } from '../openapi/schema.ts'

export default defineOperation({
  name: 'limits',
  groups: ['Reference'],
  summary:
    'Monthly quota (this call included) and per-period rate of the caller’s account. All keys of an account share the monthly counter.',
  parameters: [],
  response: object({
    user_id: integer(),
    rates: {
      type: 'array',
      prefixItems: [
        object({
          period: { const: 'month' },
          total: integer({ minimum: 0 }),
          used: integer({ minimum: 0 }),
          remaining: integer({ minimum: 0 }),
          reset_time_at: string({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}$' }),
        }),
        object({ period: string({ enum: ['second', 'minute', 'hour', 'day'] }), total: integer({ minimum: 0 }) }),
      ],
      minItems: 2,
      maxItems: 2,
      items: false,
    },
  }),
  cache: 'never',
  handle({ admission }) {
    // only the benchmark's no-access baseline has no admission: never invent numbers
    if (!admission) throw new ApiError('server_error', 'Unexpected error: access control is not configured')
    const { quota, rate } = admission
    return {
      user_id: admission.userId,
      rates: [
        {
          period: 'month',
          total: quota.total,
          used: quota.used,
          remaining: quota.remaining,
          reset_time_at: naiveLocalIsoMillis(new Date(quota.resetAtMs)),
        },
        { period: rate.period, total: rate.total },
      ],
    }
  },
})
