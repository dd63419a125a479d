/**
 * What one API operation declares: its name (= path under /api/v1), groups, query parameters, response schema,
 * cache policy and handler. Files in `server/operations/` each export one `defineOperation(...)`; the app and the
 * OpenAPI document are both built from these declarations, so they cannot drift apart.
 */
import type { Admission } from '../access/index.ts'
import type { JsonSchema, Parameter } from '../openapi/schema.ts'
import type { Snapshot } from '../snapshot/load.ts'

const API_PREFIX = '/api/v1'

export type Group = 'Scores' | 'Accounts' | 'Followers' | 'Mentions' | 'Lists' | 'History' | 'Reference'

export interface OperationContext {
  query: URLSearchParams
  /** The snapshot this request started with. */
  snapshot: Snapshot
  /** Request time: windows are anchored here and at its UTC date. */
  now: Date
  profileBaseUrl: string
  /** The caller's admission (quota, rate); null only in the benchmark's no-access baseline. */
  admission: Admission | null
}

export interface Operation {
  /** Path under /api/v1, e.g. `get_followers` or `friendshipHistory/followed`. */
  name: string
  groups: Group[]
  summary: string
  deprecated?: boolean
  parameters: Parameter[]
  /** Schema of the success body (the error body is added by the OpenAPI builder). */
  response: JsonSchema
  /** `default`: CACHE_TTL_SECONDS; `followers_diff`: CACHE_TTL_FOLLOWERS_DIFF_SECONDS; `never`: not cached. */
  cache: 'default' | 'followers_diff' | 'never'
  /** Returns the success body (serialised with `asciiJson`); throws `ApiError` for the spec’s failures. */
  handle(context: OperationContext): object
}

/**
 * Declare an operation (identity function that types the declaration).
 * @example export default defineOperation({ name: 'get_categories', groups: ['Reference'], ... })
 */
export function defineOperation(operation: Operation): Operation {
  return operation
}

export const operationPath = (operation: Operation) => `${API_PREFIX}/${operation.name}`

/**
 * The per-operation rate-limit bucket.
 * @example rateLimitBucket('get_alpha') // 'api-get-alpha'
 * @example rateLimitBucket('friendshipHistory/followed') // 'api-friendship-history-followed'
 */
export function rateLimitBucket(name: string): string {
  return `api-${name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[_/]/g, '-')
    .toLowerCase()}`
}
