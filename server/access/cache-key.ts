/**
 * Response cache keys: operation + parameters in a canonical order without the credential + snapshot, so equal
 * queries share an entry. The parameters are read as the operations read them (decoded, `URLSearchParams`) and
 * sorted by name, a repeated name keeping its values in the order sent: the operations read a repeated parameter's
 * first value, so `size=2&size=5` and `size=5&size=2` are different queries.
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
