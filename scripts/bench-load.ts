/**
 * Snapshot load benchmark: time to load one snapshot folder, process memory before/after (RSS, V8 heap, array
 * buffers) and the bytes of every serving structure (typed arrays exactly, string arrays estimated from their
 * lengths), and again 5 s later (DuckDB's memory released). Run in its own process so the figures are the loader's
 * alone:
 *
 *   node --expose-gc --import tsx scripts/bench-load.ts <snapshots-dir>/current
 */
import { loadSnapshot } from '../server/snapshot/load.ts'

const dir = process.argv[2]
if (!dir) throw new Error('usage: scripts/bench-load.ts <snapshot dir>')

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined)

function memory(label: string): void {
  gc()
  const m = process.memoryUsage()
  console.log(
    `${label.padEnd(14)} rss ${mib(m.rss)}  heapUsed ${mib(m.heapUsed)}  arrayBuffers ${mib(m.arrayBuffers)}  external ${mib(m.external)}`,
  )
}

/** Typed-array bytes (each buffer counted once) and an estimate of string bytes (UTF-16 length + 16 per string). */
function sizeOf(value: unknown, seen: Set<unknown>): { typed: number; strings: number; other: number } {
  const size = { typed: 0, strings: 0, other: 0 }
  const add = (s: typeof size) => {
    size.typed += s.typed
    size.strings += s.strings
    size.other += s.other
  }
  if (value === null || typeof value !== 'object' || seen.has(value)) return size
  seen.add(value)
  if (ArrayBuffer.isView(value)) {
    if (!seen.has(value.buffer)) size.typed += value.buffer.byteLength
    seen.add(value.buffer)
  } else if (Array.isArray(value)) {
    size.other += value.length * 8
    for (const v of value) {
      if (typeof v === 'string') size.strings += 16 + v.length * 2
      else add(sizeOf(v, seen))
    }
  } else if (value instanceof Map) {
    size.other += value.size * 40
    for (const [k, v] of value) {
      if (typeof k === 'string') size.strings += 16 + k.length * 2
      add(sizeOf(v, seen))
    }
  } else if (!(value instanceof Date)) {
    for (const v of Object.values(value)) add(sizeOf(v, seen))
  }
  return size
}

memory('before')
const started = Date.now()
const snapshot = await loadSnapshot(dir)
const readyMs = Date.now() - started
memory('after load')
console.log(`loaded ${snapshot.id} in ${(readyMs / 1000).toFixed(1)} s`)

const seen = new Set<unknown>()
let total = 0
for (const [key, value] of Object.entries(snapshot)) {
  const size = sizeOf(value, seen)
  const sum = size.typed + size.strings + size.other
  total += sum
  if (sum < 2 ** 20) continue
  console.log(
    `  ${key.padEnd(22)} ${mib(sum).padStart(9)}  (typed ${mib(size.typed)}, strings ~${mib(size.strings)}, other ~${mib(size.other)})`,
  )
}
console.log(`  ${'total'.padEnd(22)} ${mib(total).padStart(9)}`)

// once DuckDB's memory is released
await new Promise((resolve) => setTimeout(resolve, 5000))
memory('settled (5 s)')
