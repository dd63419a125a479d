/**
 * The JSON parts of bodies. Stringifying list rows is the largest CPU cost of a list page, and the part of a row
 * that describes an account (or a tweet) never changes within a snapshot: it is stringified and encoded to UTF-8
 * once per snapshot (`snapshotMembers`, `objectJson`), and a page is written around those bytes (`JsonWriter`).
 * Every body is ASCII (`asciiJson`).
 *
 * @example
 * const parts = idxs.map((f) => snapshotMembers(snapshot, 'follower', f, describe)) // `"platform_id":"1",…` as bytes
 * return listPage(request, total, 'data', parts) // rules/pagination.ts
 */
import type { Snapshot } from './snapshot/types.ts'

/** JSON text, or its UTF-8 bytes kept per snapshot. */
export type JsonPart = string | Uint8Array

/** A character outside ASCII (a UTF-16 unit: a surrogate pair is two). */
const NON_ASCII = /[\u0080-\uffff]/g

const escapeUnit = (unit: string) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`

/**
 * `JSON.stringify(value)` with every character outside ASCII written as a JSON escape (`"Zoë 🚀"` →
 * `"Zo\u00eb \ud83d\ude80"`): the same value for any JSON parser, in bytes every client decodes on its ASCII
 * path. Every body of the API is made with it. (A JavaScript client decodes a body with one non-ASCII character
 * into a two-byte string, all of it: measured at 10 KB, 47 µs of the client's CPU per response against 26 µs.)
 */
export function asciiJson(value: object): string {
  return JSON.stringify(value).replace(NON_ASCII, escapeUnit)
}

/** A number as JSON writes it (`null` for NaN and ±Infinity), without a call to `JSON.stringify`. */
export function jsonNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null'
}

/** Entries kept per snapshot and kind before the memo starts over: ~5 MB per kind (a few hundred bytes each). */
const MEMO_LIMIT = 10_000

/**
 * The members of one kind (what its `describe` renders) in one snapshot, made once per index: `describe(idx)` as
 * JSON without the braces (`"a":1,"b":[]`), as UTF-8 bytes. A page takes its memo once (`memberMemo`), then one
 * lookup per row.
 */
export class MemberMemo {
  readonly #entries = new Map<number, Buffer>()

  members(idx: number, describe: (idx: number) => object): Buffer {
    let members = this.#entries.get(idx)
    if (members === undefined) {
      if (this.#entries.size >= MEMO_LIMIT) this.#entries.clear()
      members = Buffer.from(jsonMembers(describe(idx)))
      this.#entries.set(idx, members)
    }
    return members
  }

  /** `members` of each index, in order. */
  list(indexes: ArrayLike<number>, describe: (idx: number) => object): Buffer[] {
    const parts: Buffer[] = []
    for (let i = 0; i < indexes.length; i++) parts.push(this.members(indexes[i], describe))
    return parts
  }
}

const memos = new WeakMap<Snapshot, Map<string, MemberMemo>>()

/** The snapshot's memo of `kind`. */
export function memberMemo(snapshot: Snapshot, kind: string): MemberMemo {
  let byKind = memos.get(snapshot)
  if (!byKind) memos.set(snapshot, (byKind = new Map()))
  let memo = byKind.get(kind)
  if (!memo) byKind.set(kind, (memo = new MemberMemo()))
  return memo
}

/** The members of `describe(idx)` in the snapshot's memo of `kind` (see `MemberMemo`). */
export function snapshotMembers(snapshot: Snapshot, kind: string, idx: number, describe: (idx: number) => object): Buffer {
  return memberMemo(snapshot, kind).members(idx, describe)
}

/** The members of an object as JSON without its braces (`{ days: 7 }` → `"days":7`), ASCII like `asciiJson`. */
export function jsonMembers(value: object): string {
  return asciiJson(value).slice(1, -1)
}

/** The total length of byte parts (a page's size hint). */
export function bytesOf(parts: readonly Uint8Array[]): number {
  let bytes = 0
  for (const part of parts) bytes += part.length
  return bytes
}

const objectBytes = new WeakMap<object, Buffer>()

/** `render(item)` as JSON bytes, once per item: for the snapshot's own immutable objects (ranked list items). */
export function objectJson<T extends object>(item: T, render: (item: T) => object): Buffer {
  let bytes = objectBytes.get(item)
  if (bytes === undefined) objectBytes.set(item, (bytes = Buffer.from(asciiJson(render(item)))))
  return bytes
}
