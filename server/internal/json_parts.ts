/**
 * List pages assembled from JSON parts. Stringifying list rows is the largest CPU cost of a list page, and the part
 * of a row that describes an account (or a tweet) never changes within a snapshot: it is stringified and encoded to
 * UTF-8 once per snapshot, and a page is copied together from those bytes and a little text around them. No string
 * of the whole page is built, so none is flattened or encoded per request.
 *
 * @example
 * const rows = idxs.map((f) => ['{', snapshotMembers(snapshot, 'follower', f, describe), ',"subscribed_at":"…"}'])
 * return jsonWithList({ success: true, total }, 'top_followers', rows) // the endpoint sends `.toBuffer()`
 */
import type { Snapshot } from '../snapshot/types.ts'
import { keepTransient, transientBytes } from './transient.ts'

/** JSON text, or its UTF-8 bytes kept per snapshot. */
export type JsonPart = string | Buffer

/**
 * A body given as JSON parts; `toBuffer()` copies them into the bytes that are sent, in request memory
 * (`transientBytes`: the response cache keeps a copy of its own).
 */
export class JsonParts {
  constructor(private readonly parts: readonly JsonPart[]) {}

  toBuffer(): Buffer {
    // one pass: a text part takes at most 3 UTF-8 bytes per UTF-16 unit, and the unused rest goes back
    let bound = 0
    for (const part of this.parts) bound += typeof part === 'string' ? part.length * 3 : part.length
    const out = transientBytes(bound)
    let at = 0
    for (const part of this.parts) at += typeof part === 'string' ? writeText(out, part, at) : part.copy(out, at)
    return keepTransient(out, at)
  }
}

/** Text this short (separators like `},{`) is copied here when ASCII: a call into Node costs more than the loop. */
const SHORT_TEXT = 16

/** `text` as UTF-8 into `out` at `at`; the bytes written. */
function writeText(out: Buffer, text: string, at: number): number {
  if (text.length > SHORT_TEXT) return out.write(text, at)
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code > 0x7f) return out.write(text, at)
    out[at + i] = code
  }
  return text.length
}

/**
 * `{...head, ...members, [key]: [items]}` where each item is a list of JSON parts and each of `members` is a run of
 * JSON members without braces (`"a":1,"b":2`, e.g. from `snapshotMembers`); `head`'s members come first, in their
 * order. Adjacent text is joined, so a page has about one text part per item between the bytes.
 */
export function jsonWithList(
  head: object,
  key: string,
  items: readonly (readonly JsonPart[])[],
  members: readonly JsonPart[] = [],
): JsonParts {
  const start = asciiJson(head)
  const parts: JsonPart[] = []
  let text = start.slice(0, -1)
  let empty = start.length <= 2
  for (const member of members) {
    if (!empty) text += ','
    empty = false
    if (typeof member === 'string') text += member
    else {
      parts.push(text, member)
      text = ''
    }
  }
  text += `${empty ? '' : ','}${JSON.stringify(key)}:[`
  for (let i = 0; i < items.length; i++) {
    if (i > 0) text += ','
    for (const part of items[i]) {
      if (typeof part === 'string') text += part
      else {
        parts.push(text, part)
        text = ''
      }
    }
  }
  parts.push(`${text}]}`)
  return new JsonParts(parts)
}

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

const memos = new WeakMap<Snapshot, Map<string, Map<number, Buffer>>>()

/**
 * The members of `describe(idx)` as JSON without the braces (`"a":1,"b":[]`), as UTF-8 bytes made once per
 * snapshot, `kind` (what `describe` renders) and index.
 */
export function snapshotMembers(snapshot: Snapshot, kind: string, idx: number, describe: (idx: number) => object): Buffer {
  let byKind = memos.get(snapshot)
  if (!byKind) memos.set(snapshot, (byKind = new Map()))
  let memo = byKind.get(kind)
  if (!memo) byKind.set(kind, (memo = new Map()))
  let members = memo.get(idx)
  if (members === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear()
    members = Buffer.from(asciiJson(describe(idx)).slice(1, -1))
    memo.set(idx, members)
  }
  return members
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
