/**
 * Response cache keys: operation + parameters in a canonical order without the credential + snapshot, so equal
 * queries share an entry. Parameters are compared as sent (still percent-encoded).
 *
 * @example cacheKey('get_alpha', '?days=7&api_key=ask_…&by=score', snapshotId) // 'get_alpha?by=score&days=7@2026-11-21_…'
 */
import { isApiKeyParamName } from '../../log/logger.ts'

/** The canonical key of a query string (`?a=1&b=2` as `url.search` gives it, or empty). */
export function cacheKey(operation: string, search: string, snapshotId: string): string {
  const params = search
    .replace(/^\?/, '')
    .split('&')
    .filter((param) => param !== '' && !isApiKeyParamName(param.split('=')[0]))
    .sort()
  return `${operation}?${params.join('&')}@${snapshotId}`
}
