/**
 * Shared account identification (operations marked "account" in the spec): `platform_id` first, then `username`
 * resolved against the current username, the slug, then previous usernames, case-insensitively. A leading `@`,
 * surrounding whitespace and a trailing slash are tolerated.
 *
 * @example resolveAccount(snapshot, new URLSearchParams('username=@Alice/'), 'fallback') // account_idx of alice
 */
import { ApiError } from '../errors.ts'
import { parseId } from './integer.ts'
import { integer, string, type Parameter } from '../openapi/schema.ts'
import type { Snapshot } from '../snapshot/load.ts'

/**
 * `fallback`: an id that resolves nothing falls back to `username` (followers_count_history, get_followers, ...).
 * `precedence`: when `platform_id` is sent it alone decides (friendshipHistory/*).
 */
export type IdentificationMode = 'fallback' | 'precedence'

const ACCOUNT_REQUIRED_MESSAGE = 'username or platform_id is required'
const ACCOUNT_NOT_FOUND_MESSAGE = 'Account not found'

/** `@Alice/ ` → `alice` (the lookup key). */
function normalizeUsername(raw: string): string {
  return raw.trim().replace(/^@/, '').replace(/\/$/, '').trim().toLowerCase()
}

/** Current username, then slug, then previous usernames. */
export function findByUsername(snapshot: Snapshot, raw: string): number | undefined {
  return findByUsernameKey(snapshot, normalizeUsername(raw))
}

/** `findByUsername` of a key already normalised. */
function findByUsernameKey(snapshot: Snapshot, key: string): number | undefined {
  if (key === '') return undefined
  const row = snapshot.handles.key.find(Buffer.from(key))
  return row < 0 ? undefined : snapshot.handles.accountIdx[row]
}

/** A numeric id (any leading zeros); anything else resolves nothing. */
export function findByPlatformId(snapshot: Snapshot, raw: string): number | undefined {
  const id = parseId(raw)
  return id === null ? undefined : findId(snapshot.accounts.numericId, id)
}

/** Binary search of the ascending ids: the position of `id`, undefined when absent. */
export function findId(ids: BigUint64Array, id: bigint): number | undefined {
  let low = 0
  let high = ids.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (ids[mid] < id) low = mid + 1
    else high = mid
  }
  return ids[low] === id ? low : undefined
}

/** The target's account_idx; throws `invalid_params` when neither parameter is given, `account_not_found` when nothing resolves. */
export function resolveAccount(snapshot: Snapshot, query: URLSearchParams, mode: IdentificationMode): number {
  const platformId = query.get('platform_id')?.trim() || null
  const usernameKey = normalizeUsername(query.get('username') ?? '')
  if (platformId === null && usernameKey === '') throw new ApiError('invalid_params', ACCOUNT_REQUIRED_MESSAGE)
  let idx = platformId === null ? undefined : findByPlatformId(snapshot, platformId)
  if (idx === undefined && usernameKey !== '' && (platformId === null || mode === 'fallback')) {
    idx = findByUsernameKey(snapshot, usernameKey)
  }
  if (idx === undefined) throw new ApiError('account_not_found', ACCOUNT_NOT_FOUND_MESSAGE)
  return idx
}

export function accountParameters(mode: IdentificationMode): Parameter[] {
  return [
    {
      name: 'username',
      description:
        'Handle; a leading `@`, surrounding whitespace and a trailing slash are tolerated. Matched case-insensitively against the current username, then the slug, then previous usernames. One of `username`/`platform_id` is required.',
      schema: string(),
    },
    {
      name: 'platform_id',
      description:
        mode === 'fallback'
          ? 'Numeric account id, tried first; when it resolves nothing the lookup falls back to `username`.'
          : 'Numeric account id; when sent it takes precedence over `username`.',
      schema: integer({ minimum: 0 }),
    },
  ]
}
