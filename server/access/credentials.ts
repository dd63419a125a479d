import type { Credentials } from './types.ts'

export type KeySource = 'header' | 'bearer' | 'query'

/**
 * The API key a request carries, or null. When several are sent, the first non-empty one wins in the spec's order
 * of preference: `X-API-Key` header, then `Authorization: Bearer`, then the `api_key` query parameter.
 * @example readApiKey({ headers: new Headers({ 'x-api-key': 'ask_…' }), query }) // { key: 'ask_…', source: 'header' }
 */
export function readApiKey({ headers, query }: Credentials): { key: string; source: KeySource } | null {
  const header = headers.get('x-api-key')?.trim()
  if (header) return { key: header, source: 'header' }
  const bearer = /^bearer\s+(\S+)\s*$/i.exec(headers.get('authorization') ?? '')?.[1]
  if (bearer) return { key: bearer, source: 'bearer' }
  const param = query.get('api_key')?.trim()
  if (param) return { key: param, source: 'query' }
  return null
}
