import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { pickAccounts } from './_account.ts'
import { setup } from './_setup.ts'

const Compat = suite('client compatibility')

/** Every `platform_id` and `platform_score` anywhere in a body, with its path. */
function fields(value: unknown, path = '$', found: [string, string, unknown][] = []) {
  if (Array.isArray(value)) value.forEach((item, i) => fields(item, `${path}[${i}]`, found))
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'platform_id' || key === 'platform_score') found.push([key, `${path}.${key}`, v])
      fields(v, `${path}.${key}`, found)
    }
  }
  return found
}

Compat('every operation :: success present (limits aside), ids as digit strings, platform_score a number (null only for unknown authors)', async () => {
  const { get, server } = await setup()
  const { a, b } = await pickAccounts()
  const { paths } = (await (await fetch(`${server.url}openapi.json`)).json()) as { paths: Record<string, any> }
  const seen = { platform_id: 0, platform_score: 0 }
  for (const [path, item] of Object.entries(paths)) {
    const operation = path.replace('/api/v1/', '')
    const names = item.get.parameters.map((p: { name: string }) => p.name)
    const params: Record<string, string> = names.includes('platform_id')
      ? { platform_id: a.id }
      : names.includes('ids')
        ? { ids: `${a.id},${b.id}` }
        : {}
    const { body } = await get(operation, params)
    if (operation === 'limits') assert.not.ok('success' in body)
    else assert.is(body.success, true, `${operation}: ${JSON.stringify(body).slice(0, 200)}`)
    for (const [key, where, value] of fields(body)) {
      if (key === 'platform_id') assert.ok(typeof value === 'string' && /^\d+$/.test(value), `${operation} ${where}`)
      // the spec: an author not in the account table has a null score in the mentions feeds
      else if (!(value === null && where.endsWith('.author.platform_score'))) assert.is(typeof value, 'number', `${operation} ${where}`)
      seen[key as keyof typeof seen]++
    }
  }
  assert.ok(seen.platform_id > 50 && seen.platform_score > 50, JSON.stringify(seen))
})

Compat('names :: the operation names clients of the original API call are served', async () => {
  const { get } = await setup()
  const { a } = await pickAccounts()
  for (const operation of ['get_platform_scores_diff', 'get_platform_top_followers', 'get_platform_score', 'get_platform_info']) {
    const res = await get(operation, { platform_id: a.id })
    assert.is(res.status, 200)
    assert.is(res.body.success, true, operation)
  }
})

Compat.run()
