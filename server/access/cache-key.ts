/**
 * Response cache keys: operation + parameters in a canonical order without the credential + snapshot, so equal
 * queries share an entry. Parameters are compared as sent (still percent-encoded).
 *
 * `cacheKeyHash` is what the doorkeeper asks first, on every request: a hash of the same canonical key computed from
 * the query string as it comes (per-parameter hashes added up, so their order does not matter), without splitting,
 * sorting or joining anything. Only a key the doorkeeper has seen before is built as a string (`cacheKey`).
 *
 * @example
 * cacheKey('get_alpha', '?days=7&api_key=ask_…&by=score', snapshotId) // 'get_alpha?by=score&days=7@2026-11-21_…'
 * cacheKeyHash('get_alpha', '?by=score&days=7', snapshotId) === cacheKeyHash('get_alpha', '?days=7&by=score', snapshotId) // true
 */
import { isApiKeyParamName } from '../../pipeline/log.ts'

/** The canonical key of a query string (`?a=1&b=2` as `url.search` gives it, or empty). */
export function cacheKey(operation: string, search: string, snapshotId: string): string {
  const params = search.length > 1 ? search.slice(1).split('&') : []
  // in place: drop empty parameters and the credential, then an insertion sort (a query has a few parameters)
  let kept = 0
  for (const param of params) if (param !== '' && !isCredential(param, 0, param.length)) params[kept++] = param
  params.length = kept
  for (let i = 1; i < kept; i++) {
    const param = params[i]
    let j = i - 1
    for (; j >= 0 && params[j] > param; j--) params[j + 1] = params[j]
    params[j + 1] = param
  }
  return `${operation}?${params.join('&')}@${snapshotId}`
}

/** A 32-bit hash of `cacheKey(operation, search, snapshotId)`: equal keys give equal hashes. */
export function cacheKeyHash(operation: string, search: string, snapshotId: string): number {
  return cacheKeyHashFrom(cacheKeySeed(operation, snapshotId), search)
}

/** The part of a key's hash that names its operation and snapshot: an endpoint makes it once per snapshot. */
export function cacheKeySeed(operation: string, snapshotId: string): number {
  return fnv1a(snapshotId, 0, snapshotId.length, fnv1a(operation, 0, operation.length, OFFSET))
}

/** `cacheKeyHash` of a query string from its operation's and snapshot's `cacheKeySeed`. */
export function cacheKeyHashFrom(seed: number, search: string): number {
  let params = 0
  for (let start = search.charCodeAt(0) === 0x3f ? 1 : 0; start < search.length; ) {
    let end = search.indexOf('&', start)
    if (end === -1) end = search.length
    if (end > start && !isCredential(search, start, end)) params = (params + finish(fnv1a(search, start, end, OFFSET))) | 0
    start = end + 1
  }
  return finish(Math.imul(seed ^ params, PRIME))
}

/**
 * Whether `text[start..end)` is the `api_key` parameter (with or without a value), its name as sent or
 * percent-encoded (`api%5Fkey=…` is a credential too: `URLSearchParams` decodes names).
 */
function isCredential(text: string, start: number, end: number): boolean {
  if (text.startsWith('api_key', start) && (end === start + 7 || text.charCodeAt(start + 7) === 0x3d)) return true
  // a name that decodes to `api_key` has a '%' and at most 21 characters (each of the 7 as %XX)
  const last = Math.min(end, start + 22)
  let nameEnd = start
  let encoded = false
  for (; nameEnd < last; nameEnd++) {
    const code = text.charCodeAt(nameEnd)
    if (code === 0x3d) break
    if (code === 0x25) encoded = true
  }
  return encoded && nameEnd - start <= 21 && isApiKeyParamName(text.slice(start, nameEnd))
}

const OFFSET = 0x811c9dc5
const PRIME = 0x01000193

/** 32-bit FNV-1a over the UTF-16 code units of `text[start..end)`, from `hash`. */
function fnv1a(text: string, start: number, end: number, hash: number): number {
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), PRIME)
  return hash
}

/** Spreads every input bit over the result (murmur3's finaliser), so sums of hashes stay well mixed. */
function finish(hash: number): number {
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b)
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35)
  return (hash ^ (hash >>> 16)) >>> 0
}
