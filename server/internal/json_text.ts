/**
 * Response bodies assembled from JSON text. Stringifying list rows is the largest CPU cost of a list page, and the
 * part of a row that describes an account (or a tweet) never changes within a snapshot: it is stringified once per
 * snapshot and reused, and the page is joined from text.
 *
 * @example
 * const rows = idxs.map((f) => `{${snapshotMembers(snapshot, 'follower', f, describe)},"subscribed_at":"…"}`)
 * return jsonWithList({ success: true, total }, 'top_followers', rows) // the app sends `.text` as is
 */
import type { Snapshot } from '../snapshot/types.ts'

/** A body already in JSON text (the app sends it instead of stringifying). */
export class JsonText {
  constructor(readonly text: string) {}
}

/** `{...head, [key]: [items]}` where each item is JSON text; `head`'s members come first, in their order. */
export function jsonWithList(head: object, key: string, items: readonly string[]): JsonText {
  const start = JSON.stringify(head)
  return new JsonText(`${start.slice(0, -1)}${start.length > 2 ? ',' : ''}${JSON.stringify(key)}:[${items.join(',')}]}`)
}

/** Entries kept per snapshot and kind before the memo starts over: at most ~10 MB per kind (a few hundred bytes each). */
const MEMO_LIMIT = 20_000

const memos = new WeakMap<Snapshot, Map<string, Map<number, string>>>()

/**
 * The members of `describe(idx)` as JSON text without the braces (`"a":1,"b":[]`), stringified once per snapshot,
 * `kind` (what `describe` renders) and index.
 */
export function snapshotMembers(snapshot: Snapshot, kind: string, idx: number, describe: (idx: number) => object): string {
  let byKind = memos.get(snapshot)
  if (!byKind) memos.set(snapshot, (byKind = new Map()))
  let memo = byKind.get(kind)
  if (!memo) byKind.set(kind, (memo = new Map()))
  let members = memo.get(idx)
  if (members === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear()
    members = JSON.stringify(describe(idx)).slice(1, -1)
    memo.set(idx, members)
  }
  return members
}

const objectTexts = new WeakMap<object, string>()

/** `render(item)` as JSON text, once per item: for the snapshot's own immutable objects (ranked list items). */
export function objectJson<T extends object>(item: T, render: (item: T) => object): string {
  let text = objectTexts.get(item)
  if (text === undefined) objectTexts.set(item, (text = JSON.stringify(render(item))))
  return text
}
