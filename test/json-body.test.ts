/** Bodies (`server/json.ts`): ASCII JSON of the same value. */
import * as assert from 'uvu/assert'
import { suite } from 'uvu'
import { asciiJson } from '../server/json.ts'

const test = suite('json')

test('asciiJson :: characters outside ASCII become JSON escapes that parse back to the same value', () => {
  const value = { name: 'Zoë — café', note: '中文 🚀', lone: '\ud800 alone', plain: 'ascii "q" \\ \n', n: 1.5, list: ['ñ', null] }
  const text = asciiJson(value)
  assert.ok(/^[\x00-\x7f]*$/.test(text), text)
  assert.equal(JSON.parse(text), value)
  assert.is(asciiJson({ a: 'é' }), '{"a":"\\u00e9"}')
  assert.is(asciiJson({ a: '🚀' }), '{"a":"\\ud83d\\ude80"}')
  assert.is(asciiJson({ a: 'plain' }), JSON.stringify({ a: 'plain' }))
})

test.run()
