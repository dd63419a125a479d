import { hash, randomBytes } from 'node:crypto'

/** Every key starts with this prefix, which the shared logger recognises and redacts. */
const KEY_PREFIX = 'ask_'

/** 32 random bytes: 256 bits of entropy, 43 base64url characters. */
const KEY_BYTES = 32
const KEY_PATTERN = /^ask_[A-Za-z0-9_-]{43}$/

/**
 * A new raw key. It is shown once and never stored: only `hashApiKey(key)` is.
 * @example generateApiKey() // 'ask_3q2-…' (47 characters)
 */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(KEY_BYTES).toString('base64url')
}

/** The SHA-256 hex digest under which a key is stored and looked up. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex')
}

/** Whether a string has the shape of a key we issue (anything else is invalid without a storage lookup). */
export function looksLikeApiKey(key: string): boolean {
  return KEY_PATTERN.test(key)
}

/** What the operator sees instead of a key: the start of its hash. */
export function fingerprint(hash: string): string {
  return hash.slice(0, 12)
}
