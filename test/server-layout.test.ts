/**
 * The server's source as a maintainer reads it: no import cycle between its files, no file over 400 lines, one
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

Layout('files :: at most 400 lines each, kebab-case names', () => {
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
