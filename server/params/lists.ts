/**
 * Comma-separated id lists (`tag_ids`, `category_ids`): elements trimmed, empty elements skipped, and if any element
 * is not an integer the whole list is ignored (no error).
 *
 * @example readIdList(new URLSearchParams('tag_ids=1, ,2'), 'tag_ids') // [1, 2]
 * @example readIdList(new URLSearchParams('tag_ids=1,x'), 'tag_ids') // null (ignored)
 */
import { parseInteger } from './integer.ts'
import { string, type Parameter } from '../openapi/schema.ts'

/** The ids, or null when the list is absent, empty or ignored. */
export function readIdList(query: URLSearchParams, name: string): number[] | null {
  const entries = splitList(query.get(name) ?? '')
  const ids: number[] = []
  for (const entry of entries) {
    const id = parseInteger(entry)
    if (id === null) return null
    ids.push(id)
  }
  return ids.length > 0 ? ids : null
}

/**
 * Non-empty trimmed elements of a comma list, after keeping only the first `limit` raw elements (the cap is applied
 * before anything else, so empty or invalid elements still use up slots).
 */
export function splitList(value: string, limit = Infinity): string[] {
  return value
    .split(',')
    .slice(0, limit)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
}

export function idListParameter(name: string, description: string): Parameter {
  return {
    name,
    description: `${description} Comma-separated integers; whitespace trimmed, empty elements skipped; if any element is not an integer the whole list is ignored.`,
    schema: string({ examples: ['1,3'] }),
  }
}
