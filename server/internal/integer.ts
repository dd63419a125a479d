/**
 * Strict integer parsing for query values: optional sign and digits, surrounding whitespace allowed.
 * @example parseInteger(' 42 ') // 42
 * @example parseInteger('4.2') // null
 */
export function parseInteger(value: string | null | undefined): number | null {
  if (value == null) return null
  const trimmed = value.trim()
  if (!/^[+-]?\d+$/.test(trimmed)) return null
  const n = Number(trimmed)
  return Number.isSafeInteger(n) ? n : null
}

/**
 * Canonical decimal form of an unsigned id (leading zeros dropped) without passing through a JS number.
 * @example canonicalId('0012') // '12'
 * @example canonicalId('x1') // null
 */
export function canonicalId(value: string): string | null {
  const trimmed = value.trim()
  if (!/^\+?\d+$/.test(trimmed)) return null
  return BigInt(trimmed).toString()
}
