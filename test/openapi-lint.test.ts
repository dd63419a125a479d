/**
 * The real server's `/openapi.json` is lint-clean under Redocly's `recommended` rules (`@redocly/openapi-core`,
 * the engine of `redocly lint`): any problem of severity `error` fails, with its rule, location and message.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core'
import { setup } from './_setup.ts'

const Lint = suite('openapi lint')

function describe(problem: NormalizedProblem): string {
  const where = problem.location.map((l) => l.pointer).filter(Boolean).join(', ')
  return `${problem.ruleId} at ${where}: ${problem.message}`
}

Lint('openapi :: /openapi.json has no lint error under the recommended rules', async () => {
  const env = await setup()
  const res = await env.get('/openapi.json', {}, { key: null })
  assert.is(res.status, 200)
  const problems = await lintFromString({
    source: JSON.stringify(res.body),
    absoluteRef: 'openapi.json',
    config: await createConfig({ extends: ['recommended'] }),
  })
  const errors = problems.filter((p) => p.severity === 'error').map(describe)
  assert.equal(errors, [], `${errors.length} lint errors:\n${errors.join('\n')}`)
})

Lint.run()
