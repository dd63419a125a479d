/**
 * Response cache keys: operation + the parameters as operations read them (decoded), sorted by name with a repeated
 * name's values in the order sent (an operation reads the first), without the credential + snapshot.
 *
 * @example cacheKey('get_alpha', '?days=7&api_key=ask_…&by=score', snapshotId) // 'get_alpha?by=score&days=7@2026-11-21_…'
 */

/** The canonical key of a query string (`?a=1&b=2` as `url.search` gives it, or empty). */
export function cacheKey(operation: string, search: string, snapshotId: string): string {
  const params = new URLSearchParams(search)
  // however its name is spelled (`%61pi_key` decodes to it)
  params.delete('api_key')
  params.sort()
  return `${operation}?${params}@${snapshotId}`
}
