import { createConfig, lintFromString } from '@redocly/openapi-core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { setup } from './_setup.ts'

const test = suite('openapi lint')

test("lint :: the served /openapi.json passes Redocly's recommended rules with no error and no warning", async () => {
  const { server } = await setup()
  const source = await (await fetch(`${server.url}openapi.json`)).text()
  const config = await createConfig({ extends: ['recommended'] })
  const problems = await lintFromString({ source, absoluteRef: `${server.url}openapi.json`, config })
  const found = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)
  assert.equal(found, [])
})

test.run()
