import type { Credentials } from './types.ts'

export type KeySource = 'header' | 'bearer' | 'query'

/** `Authorization` holding a bearer credential, and holding exactly one. */
const HAS_BEARER = /(?:^|,)\s*bearer\s+\S/i
const ONE_BEARER = /^\s*bearer\s+([^\s,]+)\s*$/i

/**
 * The API key a request carries, null when it carries none, or `'invalid'` when its winning credential is malformed
 * (two `Authorization: Bearer` fields, which a client's proxy may add). When several are sent, the first non-empty
 * one wins in the spec's order of preference: `X-API-Key` header, then `Authorization: Bearer`, then the `api_key`
 * query parameter.
 * @example readApiKey({ headers: new Headers({ 'x-api-key': 'ask_…' }), query }) // { key: 'ask_…', source: 'header' }
 */
export function readApiKey({ headers, query }: Credentials): { key: string; source: KeySource } | 'invalid' | null {
  const header = headers.get('x-api-key')?.trim()
  if (header) return { key: header, source: 'header' }
  const authorization = headers.get('authorization') ?? ''
  if (HAS_BEARER.test(authorization)) {
    const bearer = ONE_BEARER.exec(authorization)?.[1]
    return bearer ? { key: bearer, source: 'bearer' } : 'invalid'
  }
  const param = query.get('api_key')?.trim()
  if (param) return { key: param, source: 'query' }
  return null
}
