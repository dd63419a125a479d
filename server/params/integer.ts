/**
 * Strict integer parsing for query values: optional sign and digits, surrounding whitespace allowed. A value past
 * 2^53 - 1 is that bound with its sign, however many digits it has (a huge `size` is capped, a huge `page` is past
 * the end and echoed as a finite number, a huge filter id matches nothing); account ids never come through here
 * (`parseId`).
 * @example parseInteger(' 42 ') // 42
 * @example parseInteger('99999999999999999999') // 9007199254740991
 * @example parseInteger('4.2') // null
 */
export function parseInteger(value: string | null | undefined): number | null {
  if (value == null) return null
  const trimmed = value.trim()
  if (!/^[+-]?\d+$/.test(trimmed)) return null
  const n = Number(trimmed)
  return Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, n))
}

/**
 * An unsigned id (optional `+`, any leading zeros, surrounding whitespace) as a bigint, without passing through a
 * JS number; anything else → null.
 * @example parseId(' 0012') // 12n
 * @example parseId('x1') // null
 */
export function parseId(value: string): bigint | null {
  const trimmed = value.trim()
  return /^\+?\d+$/.test(trimmed) ? BigInt(trimmed) : null
}
