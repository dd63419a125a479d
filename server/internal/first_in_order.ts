/**
 * Partial sort: the first `count` items in the order of `compare` (a total order), for lists built per request
 * whose callers show only one page. A bounded heap costs O(n log count) instead of sorting all n items; when the
 * page reaches deep into the list a plain sort is cheaper.
 *
 * @example firstInOrder([5, 1, 4, 2], 2, (x, y) => x - y) // [1, 2]
 */
export function firstInOrder(items: number[], count: number, compare: (x: number, y: number) => number): number[] {
  if (count <= 0) return []
  if (count * 4 >= items.length) return items.sort(compare).slice(0, count)
  // max-heap by `compare`: heap[0] is the last of the items kept so far. Items move along the path of a hole, which
  // is filled once at the end (no swaps).
  const heap: number[] = []
  for (const item of items) {
    if (heap.length < count) {
      let i = heap.length
      heap.push(item)
      for (let parent = (i - 1) >> 1; i > 0 && compare(item, heap[parent]) > 0; parent = (i - 1) >> 1) {
        heap[i] = heap[parent]
        i = parent
      }
      heap[i] = item
    } else if (compare(item, heap[0]) < 0) {
      let i = 0
      for (;;) {
        const left = 2 * i + 1
        if (left >= count) break
        const right = left + 1
        const top = right < count && compare(heap[right], heap[left]) > 0 ? right : left
        if (compare(heap[top], item) <= 0) break
        heap[i] = heap[top]
        i = top
      }
      heap[i] = item
    }
  }
  return heap.sort(compare)
}
