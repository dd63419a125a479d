import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'

const Install = suite('reproducible install')
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'))

Install('lock :: every optional platform package of every locked package is locked too (npm ci on any platform)', () => {
  const { packages } = read('package-lock.json') as { packages: Record<string, { optionalDependencies?: Record<string, string>; version?: string }> }
  const missing: string[] = []
  for (const [at, entry] of Object.entries(packages)) {
    for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const nested = `${at}/node_modules/${name}`
      const locked = packages[nested] ?? packages[`node_modules/${name}`]
      if (!locked) missing.push(`${name}@${version} (of ${at || 'the project'})`)
    }
  }
  assert.equal(missing, [])
  assert.ok(packages['node_modules/@duckdb/node-bindings-darwin-arm64'], 'the DuckDB binding of another platform')
})

Install('lock :: the lock file pins what package.json asks for', () => {
  const manifest = read('package.json')
  const lock = read('package-lock.json')
  for (const kind of ['dependencies', 'devDependencies'] as const) {
    assert.equal(lock.packages[''][kind], manifest[kind], kind)
    for (const [name, version] of Object.entries<string>(manifest[kind])) {
      assert.is(lock.packages[`node_modules/${name}`]?.version, version, name)
    }
  }
})

Install('scripts :: every package with an install script is allowed or denied explicitly (no npm warning)', () => {
  const { allowScripts = {} } = read('package.json')
  const { packages } = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> }
  const unlisted = Object.entries(packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([at]) => at.slice(at.lastIndexOf('node_modules/') + 'node_modules/'.length))
    .filter((name) => !(name in allowScripts))
  assert.equal(unlisted, [])
})

Install.run()
