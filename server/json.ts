/**
 * Every body of the API is ASCII JSON: `JSON.stringify` with each character outside ASCII written as a JSON escape
 * (`"Zoë 🚀"` → `"Zo\u00eb \ud83d\ude80"`): the same value for any JSON parser, in bytes every client decodes on
 * its ASCII path.
 *
 * @example asciiJson({ name: 'Zoë' }) // '{"name":"Zo\\u00eb"}'
 */

/** A character outside ASCII (a UTF-16 unit: a surrogate pair is two). */
const NON_ASCII = /[\u0080-\uffff]/g

const escapeUnit = (unit: string) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`

export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(NON_ASCII, escapeUnit)
}
