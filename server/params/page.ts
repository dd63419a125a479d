/**
 * Shared pagination rule: `page` (default 1; non-numeric, 0 or negative → 1) and `size` per the spec's table;
 * a page past the end is empty with the same `total` and `pages`; `pages` ≥ 1; `size` = items returned.
 *
 * @example const request = readPage(query, 'get_trending')
 *          return pagedItems(request, total, 'data', (p) => trendingItem(snapshot, list, p), { days, by })
 */
import { parseInteger } from './integer.ts'
import { integer, type Parameter } from '../openapi/schema.ts'

/** The spec's size table (get_mentions_feed's default is ours: the spec shows only its cap). */
export const PAGE_SIZES = {
  bulk_scores_check: { default: 10, max: 50 },
  followers_count_history: { default: 30, max: 30 },
  friendshipHistory: { default: 10, max: 25 },
  get_smart_follows: { default: 10, max: 100 },
  get_categories: { default: 10, max: 25 },
  get_followers: { default: 10, max: 25 },
  get_mentioners: { default: 10, max: 100 },
  get_mentions_feed: { default: 10, max: 25 },
  // docs/extra-operations.md
  get_tags_list: { default: 10, max: 100 },
  get_tag_categories: { default: 10, max: 25 },
  get_score_history: { default: 30, max: 30 },
  get_trending: { default: 10, max: 100 },
  get_top_researched: { default: 10, max: 100 },
  get_smart_mentions_feed: { default: 10, max: 25 },
} as const

export type PageSizeRule = keyof typeof PAGE_SIZES

export interface PageRequest {
  page: number
  /** Requested page size after the rule (the response's `size` is the number of items actually returned). */
  size: number
}

export function readPage(query: URLSearchParams, rule: PageSizeRule): PageRequest {
  const sizes = PAGE_SIZES[rule]
  const page = parseInteger(query.get('page'))
  const size = parseInteger(query.get('size'))
  return {
    page: page === null || page < 1 ? 1 : page,
    size: size === null ? sizes.default : Math.min(Math.max(size, 1), sizes.max),
  }
}

/** Row range [start, end) of the requested page within `total` rows (empty past the end). */
export function pageRange(request: PageRequest, total: number): { start: number; end: number } {
  const start = Math.min((request.page - 1) * request.size, total)
  return { start, end: Math.min(start + request.size, total) }
}

/**
 * The page of rows among `count` ordered positions (`rowAt(p)` = row at position p) and the total. Without a filter
 * the page is read directly; with one, every position is tested, since `total` counts all matches. `keep(row)` tells
 * whether the row is listed, or how many times (a row repeated by a join).
 * @example pageRows(request, 25, (p) => first + p, null) // page 2 of size 10 → rows first+10 … first+19, total 25
 */
export function pageRows(
  request: PageRequest,
  count: number,
  rowAt: (position: number) => number,
  keep: ((row: number) => boolean | number) | null,
): { total: number; rows: number[] } {
  const rows: number[] = []
  if (!keep) {
    const { start, end } = pageRange(request, count)
    for (let p = start; p < end; p++) rows.push(rowAt(p))
    return { total: count, rows }
  }
  const skip = (request.page - 1) * request.size
  let total = 0
  for (let p = 0; p < count; p++) {
    const row = rowAt(p)
    for (let copies = Number(keep(row)); copies > 0; copies--, total++) {
      if (total >= skip && rows.length < request.size) rows.push(row)
    }
  }
  return { total, rows }
}

/** The spec's envelope: `success`, `total`, `page`, `size`, `pages`, any `extra` keys, then the items under `key`. */
export function pagedBody<T>(request: PageRequest, total: number, key: string, items: T[], extra: Record<string, unknown> = {}) {
  const pages = Math.max(1, Math.ceil(total / request.size))
  return { success: true as const, total, page: request.page, size: items.length, pages, ...extra, [key]: items }
}

/** The requested page among `total` ordered positions (`itemAt(p)` = the item at position p), in the envelope under `key`. */
export function pagedItems<T>(request: PageRequest, total: number, key: string, itemAt: (position: number) => T, extra?: Record<string, unknown>) {
  const { start, end } = pageRange(request, total)
  const items: T[] = []
  for (let p = start; p < end; p++) items.push(itemAt(p))
  return pagedBody(request, total, key, items, extra)
}

/** The requested page of `items`, rendered, in the envelope under `key`. */
export function pagedList<T>(query: URLSearchParams, rule: PageSizeRule, key: string, items: readonly T[], render: (item: T) => unknown) {
  return pagedItems(readPage(query, rule), items.length, key, (p) => render(items[p]))
}

/** OpenAPI parameters `page` and `size` of one size-table row. */
export function pageParameters(rule: PageSizeRule): Parameter[] {
  const sizes = PAGE_SIZES[rule]
  return [
    {
      name: 'page',
      description: 'Page number, 1-based. Non-numeric, 0 or negative is treated as 1. A page past the end is empty.',
      schema: { ...integer(), default: 1 },
    },
    {
      name: 'size',
      description: `Items per page: default ${sizes.default}, at most ${sizes.max} (larger values are capped). Non-numeric → ${sizes.default}, below 1 → 1.`,
      schema: { ...integer(), default: sizes.default, maximum: sizes.max },
    },
  ]
}
