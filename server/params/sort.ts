/**
 * Shared sorting rules: `sort` direction and the `by` column with the spec's exact failure message.
 *
 * @example readAscending(new URLSearchParams('sort=ASCENDING')) // true
 * @example readBy(query, ['followers', 'score', 'subscribed_at'], 'score') // throws invalid_params 'Sorting is only possible by [followers|score|subscribed_at]'
 */
import { ApiError } from '../errors.ts'
import { string, type Parameter } from '../openapi/schema.ts'

/** `asc` or `ascending` in any case sorts ascending; anything else (or nothing) descending. */
export function readAscending(query: URLSearchParams): boolean {
  const sort = query.get('sort')?.toLowerCase()
  return sort === 'asc' || sort === 'ascending'
}

export const sortParameter: Parameter = {
  name: 'sort',
  description: '`asc` or `ascending` (any case) sorts ascending; any other value sorts descending.',
  schema: { ...string(), default: 'desc', examples: ['asc', 'desc', 'ascending', 'descending'] },
}

/**
 * The `by` column, case-sensitive. Absent or empty → `fallback`; any other value than `allowed` fails with the
 * spec's message, which lists `allowed` in the order given.
 */
export function readBy<T extends string>(query: URLSearchParams, allowed: readonly T[], fallback: T): T {
  const by = query.get('by')
  if (by === null || by === '') return fallback
  if ((allowed as readonly string[]).includes(by)) return by as T
  throw new ApiError('invalid_params', `Sorting is only possible by [${allowed.join('|')}]`)
}

export function byParameter(allowed: readonly string[], fallback: string, description: string): Parameter {
  return {
    name: 'by',
    description: `${description} Other values fail with \`Sorting is only possible by [${allowed.join('|')}]\`.`,
    schema: { ...string({ enum: [...allowed] }), default: fallback },
  }
}
