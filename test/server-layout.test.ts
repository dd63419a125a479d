/**
 * The server's source as a maintainer reads it: no import cycle between its files or its folders, at most 5,500
 * lines, no file over 400 lines, one
 * file-naming style (kebab-case `.ts`), and nothing that reaches into private fields or symbols of h3, srvx or Node.
 */
import fs from 'node:fs'
import path from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'

const Layout = suite('server layout')
const ROOT = path.resolve('server')

function sources(dir = ROOT): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    return entry.isDirectory() ? sources(full) : entry.name.endsWith('.ts') ? [full] : []
  })
}

/** The server files a file imports (relative imports that stay inside server/). */
function imports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8')
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'(\.{1,2}\/[^']+)'/g)]
    .map((match) => path.resolve(path.dirname(file), match[1]))
    .filter((target) => target.startsWith(ROOT + path.sep))
}

Layout('imports :: no cycle between the server’s files', () => {
  const graph = new Map(sources().map((file) => [file, imports(file)]))
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (file: string, trail: string[]): void => {
    if (state.get(file) === 'done') return
    if (state.get(file) === 'visiting') {
      const cycle = [...trail.slice(trail.indexOf(file)), file].map((f) => path.relative(ROOT, f))
      assert.unreachable(`import cycle: ${cycle.join(' → ')}`)
    }
    state.set(file, 'visiting')
    for (const next of graph.get(file) ?? []) {
      assert.ok(graph.has(next), `${path.relative(ROOT, file)} imports a missing file ${path.relative(ROOT, next)}`)
      visit(next, [...trail, file])
    }
    state.set(file, 'done')
  }
  for (const file of graph.keys()) visit(file, [])
})

Layout('imports :: no cycle between the server’s folders (a file at its top counts as a folder of its own)', () => {
  const unit = (file: string) => path.relative(ROOT, file).split(path.sep)[0]
  const graph = new Map<string, Set<string>>()
  for (const file of sources()) {
    const targets = graph.get(unit(file)) ?? new Set()
    for (const target of imports(file)) if (unit(target) !== unit(file)) targets.add(unit(target))
    graph.set(unit(file), targets)
  }
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
    [...(graph.get(from) ?? [])].some((next) => next === to || (!seen.has(next) && (seen.add(next), reaches(next, to, seen))))
  for (const [folder, targets] of graph) {
    for (const target of targets) assert.not.ok(reaches(target, folder), `folder cycle: ${folder} → ${target} → … → ${folder}`)
  }
})

Layout('files :: the server is at most 5,500 lines, at most 400 lines each, kebab-case names', () => {
  const total = sources().reduce((sum, file) => sum + fs.readFileSync(file, 'utf8').split('\n').length - 1, 0)
  assert.ok(total <= 5500, `server/: ${total} lines`)
  for (const file of sources()) {
    const lines = fs.readFileSync(file, 'utf8').split('\n').length
    assert.ok(lines <= 400, `${path.relative(ROOT, file)}: ${lines} lines`)
    assert.match(path.relative(ROOT, file), /^([a-z0-9]+(-[a-z0-9]+)*\/)*[a-z0-9]+(-[a-z0-9]+)*\.ts$/)
  }
})

Layout('internals :: no private fields or symbols of h3, srvx or Node', () => {
  for (const file of sources()) {
    const text = fs.readFileSync(file, 'utf8')
    assert.not.match(text, /Symbol\.for\(\s*['"](srvx|h3)/, path.relative(ROOT, file))
    assert.not.match(text, /\._toNodeResponse|\[kEvent|process\.binding|internalBinding/, path.relative(ROOT, file))
  }
})

Layout.run()
