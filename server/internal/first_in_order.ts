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
  // max-heap by `compare`: heap[0] is the last of the items kept so far
  const heap: number[] = []
  const above = (i: number, j: number) => compare(heap[i], heap[j]) > 0
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j], heap[i]])
  for (const item of items) {
    if (heap.length < count) {
      heap.push(item)
      for (let i = heap.length - 1; i > 0 && above(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1)
    } else if (compare(item, heap[0]) < 0) {
      heap[0] = item
      for (let i = 0; ; ) {
        const left = 2 * i + 1
        const right = left + 1
        let top = i
        if (left < count && above(left, top)) top = left
        if (right < count && above(right, top)) top = right
        if (top === i) break
        swap(i, top)
        i = top
      }
    }
  }
  return heap.sort(compare)
}
