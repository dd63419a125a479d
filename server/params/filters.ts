/**
 * Single-id filters (`tag_id`, `category_id`, `tag_category_id`). The spec documents two behaviours for a
 * non-numeric value: `get_followers` and `get_mentions_feed` surface it as `server_error` ("Unexpected error..."),
 * `get_mentioners` silently ignores it.
 *
 * @example readFilterId(query, 'tag_id', 'server_error') // 5, null when absent, throws on 'abc'
 */
import { ApiError } from '../errors.ts'
import { parseInteger } from './integer.ts'
import { integer, type Parameter } from '../openapi/schema.ts'

export type NonNumericFilter = 'server_error' | 'ignore'

export function readFilterId(query: URLSearchParams, name: string, onNonNumeric: NonNumericFilter): number | null {
  const raw = query.get(name)
  if (raw === null || raw.trim() === '') return null
  const id = parseInteger(raw)
  if (id !== null) return id
  if (onNonNumeric === 'ignore') return null
  throw new ApiError('server_error', `Unexpected error: ${name} must be an integer, got '${raw}'`)
}

export function filterParameter(name: string, description: string, onNonNumeric: NonNumericFilter): Parameter {
  const quirk =
    onNonNumeric === 'ignore'
      ? 'A non-numeric value is ignored.'
      : 'A non-numeric value is not rejected as `invalid_params`: it surfaces as `server_error` (message beginning `Unexpected error`).'
  return { name, description: `${description} ${quirk}`, schema: integer() }
}
