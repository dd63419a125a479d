/**
 * Shared pagination rule: `page` (default 1; non-numeric, 0 or negative → 1) and `size` per the spec's table;
 * a page past the end is empty with the same `total` and `pages`; `pages` ≥ 1; `size` = items returned.
 *
 * @example const request = readPage(query, 'get_followers'); const { start, end } = pageRange(request, total)
 *          return pagedBody(request, total, 'top_followers', rows)
 */
import { parseInteger } from '../internal/integer.ts'
import { type JsonText, jsonWithList } from '../internal/json_text.ts'
import type { Parameter } from '../operation.ts'
import { integer } from '../schema.ts'

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
  // docs/extra-operations.md (issue 5)
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
 * The spec's envelope: `success`, `total`, `page`, `size`, `pages`, any `extra` keys, then the items under `key`.
 */
export function pagedBody<T>(
  request: PageRequest,
  total: number,
  key: string,
  items: T[],
  extra: Record<string, unknown> = {},
) {
  return { ...pageHead(request, total, items.length, extra), [key]: items }
}

/** The same envelope with items that are already JSON text (see `internal/json_text.ts`). */
export function pagedJson(
  request: PageRequest,
  total: number,
  key: string,
  items: string[],
  extra: Record<string, unknown> = {},
): JsonText {
  return jsonWithList(pageHead(request, total, items.length, extra), key, items)
}

function pageHead(request: PageRequest, total: number, size: number, extra: Record<string, unknown>) {
  return {
    success: true as const,
    total,
    page: request.page,
    size,
    pages: Math.max(1, Math.ceil(total / request.size)),
    ...extra,
  }
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
