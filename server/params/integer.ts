/**
 * Strict integer parsing for query values: optional sign and digits, surrounding whitespace allowed. A value past
 * 2^53 keeps its sign and magnitude (a huge `size` is capped, a huge `page` is past the end, a huge filter id
 * matches nothing); account ids never come through here (`parseId`).
 * @example parseInteger(' 42 ') // 42
 * @example parseInteger('99999999999999999999') // 1e20
 * @example parseInteger('4.2') // null
 */
export function parseInteger(value: string | null | undefined): number | null {
  if (value == null) return null
  const trimmed = value.trim()
  return /^[+-]?\d+$/.test(trimmed) ? Number(trimmed) : null
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
