/** JSON parts of bodies (`server/internal/json_parts.ts`): ASCII JSON of the same value. */
import * as assert from 'uvu/assert'
import { suite } from 'uvu'
import { asciiJson, jsonMembers } from '../server/json.ts'
import { listPage } from '../server/params/page.ts'

const test = suite('json parts')

test('asciiJson :: characters outside ASCII become JSON escapes that parse back to the same value', () => {
  const value = { name: 'Zoë — café', note: '中文 🚀', lone: '\ud800 alone', plain: 'ascii "q" \\ \n', n: 1.5, list: ['ñ', null] }
  const text = asciiJson(value)
  assert.ok(/^[\x00-\x7f]*$/.test(text), text)
  assert.equal(JSON.parse(text), value)
  assert.is(asciiJson({ a: 'é' }), '{"a":"\\u00e9"}')
  assert.is(asciiJson({ a: '🚀' }), '{"a":"\\ud83d\\ude80"}')
  assert.is(asciiJson({ a: 'plain' }), JSON.stringify({ a: 'plain' }))
  // list pages too: their members made once per snapshot and the members after the page fields
  const page = listPage({ page: 1, size: 10 }, 1, 'data', [Buffer.from(jsonMembers({ n: 'ß' }))], [jsonMembers({ label: 'ü' })])
  assert.ok(page.every((byte: number) => byte < 0x80))
  assert.equal(JSON.parse(page.toString()), { success: true, total: 1, page: 1, size: 1, pages: 1, label: 'ü', data: [{ n: 'ß' }] })
})

test.run()
