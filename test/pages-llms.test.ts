import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { setup } from './_setup.ts'

const test = suite('pages /llms.txt')

const text = async (url: string) => {
  const res = await fetch(url)
  assert.is(res.status, 200, url)
  assert.match(res.headers.get('content-type')!, /^text\/markdown/)
  return res.text()
}

test('llms.txt :: an llmstxt.org index linking every operation of the OpenAPI document', async () => {
  const { server } = await setup()
  const { paths, info } = (await (await fetch(`${server.url}openapi.json`)).json()) as any
  const index = await text(`${server.url}llms.txt`)
  assert.ok(index.startsWith(`# ${info.title}\n\n> `), 'title, then the summary as a blockquote')
  for (const path of Object.keys(paths)) assert.ok(index.includes(`](${path})`), path)
  assert.ok(index.includes('(/llms-full.txt)'))
})

test('llms-full.txt :: every operation with its parameters, an example and its response fields', async () => {
  const { server } = await setup()
  const { paths } = (await (await fetch(`${server.url}openapi.json`)).json()) as any
  const full = await text(`${server.url}llms-full.txt`)
  for (const [path, item] of Object.entries<any>(paths)) {
    const start = full.indexOf(`### GET ${path}`)
    assert.ok(start !== -1, path)
    const end = full.indexOf('\n### ', start + 1)
    const section = full.slice(start, end === -1 ? undefined : end)
    for (const p of item.get.parameters) assert.ok(section.includes(`- \`${p.name}\` (`), `${path} ${p.name}`)
    assert.ok(section.includes(`"$BASE_URL${path}`), `${path} example`)
  }
  assert.ok(full.includes('- `top_followers` (array of object): items with `platform_id`'))
})

test('llms-full.txt :: the examples are real requests that succeed with a key', async () => {
  const { server, key } = await setup()
  const full = await text(`${server.url}llms-full.txt`)
  const examples = [...full.matchAll(/curl -H "X-API-Key: \$KEY" "\$BASE_URL([^"]+)"/g)].map((m) => m[1])
  assert.ok(examples.length >= 25)
  for (const example of examples) {
    const res = await fetch(new URL(example, server.url), { headers: { 'x-api-key': key } })
    const body = (await res.json()) as any
    assert.is(body.success ?? true, true, `${example}: ${JSON.stringify(body).slice(0, 200)}`)
  }
})

test.run()
