import type { Credentials, HeaderReader } from './types.ts'

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

/**
 * The request headers as Node.js received them (`IncomingMessage.rawHeaders`: name, value, name, value…), read by
 * name as `Headers.get` reads them: case-insensitive, repeated fields joined with ", ". The access path reads one or
 * two fields per request; this way it needs no `Headers` (srvx makes one for a request on first use: ~0.5 µs).
 * @example rawHeaderReader(['Host', 'api', 'X-API-Key', 'ask_…']).get('x-api-key') // 'ask_…'
 */
export function rawHeaderReader(rawHeaders: readonly string[]): HeaderReader {
  return new RawHeaderReader(rawHeaders)
}

class RawHeaderReader implements HeaderReader {
  constructor(private readonly raw: readonly string[]) {}

  /** `name` in lower case. */
  get(name: string): string | null {
    const { raw } = this
    let value: string | null = null
    for (let i = 0; i < raw.length; i += 2) {
      const field = raw[i]
      // as sent in lower case (most clients, HTTP/2 always), the field is found without lower-casing it
      if (field === name || (field.length === name.length && field.toLowerCase() === name)) {
        value = value === null ? raw[i + 1] : `${value}, ${raw[i + 1]}`
      }
    }
    return value
  }
}
