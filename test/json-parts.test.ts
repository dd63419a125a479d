/** List pages from JSON parts (`server/internal/json_parts.ts`): the bytes are the JSON of the same value. */
import * as assert from 'uvu/assert'
import { suite } from 'uvu'
import { asciiJson, jsonWithList } from '../server/internal/json_parts.ts'

const test = suite('json parts')

/** Members of `value` without braces, as kept per snapshot. */
const members = (value: object) => Buffer.from(JSON.stringify(value).slice(1, -1))

test('toBuffer :: text and byte parts, ASCII or not, make the JSON of the whole', () => {
  const rows = [
    { name: 'plain', note: 'ascii only' },
    { name: 'Zoë — café', note: '中文 and 🚀 (a surrogate pair)' },
    { name: '', note: '"quoted" \\ and \n newline' },
  ]
  const items = rows.map((row, i) => ['{', members({ name: row.name }), `,"note":${JSON.stringify(row.note)},"i":${i}}`])
  // short text parts too (copied byte by byte when ASCII)
  items.push(['{"s":"ñ"}'], ['{"s":"n"}'])
  const body = jsonWithList({ success: true, total: 3, label: 'ünïcode ✓' }, 'data', items, [members({ extra: '🙂' })]).toBuffer()
  assert.equal(JSON.parse(body.toString('utf8')), {
    success: true,
    total: 3,
    label: 'ünïcode ✓',
    extra: '🙂',
    data: [...rows.map((row, i) => ({ ...row, i })), { s: 'ñ' }, { s: 'n' }],
  })
  assert.is(body.length, Buffer.byteLength(body.toString('utf8')), 'no bytes after the JSON')
})

test('asciiJson :: characters outside ASCII become JSON escapes that parse back to the same value', () => {
  const value = { name: 'Zoë — café', note: '中文 🚀', lone: '\ud800 alone', plain: 'ascii "q" \\ \n', n: 1.5, list: ['ñ', null] }
  const text = asciiJson(value)
  assert.ok(/^[\x00-\x7f]*$/.test(text), text)
  assert.equal(JSON.parse(text), value)
  assert.is(asciiJson({ a: 'é' }), '{"a":"\\u00e9"}')
  assert.is(asciiJson({ a: '🚀' }), '{"a":"\\ud83d\\ude80"}')
  assert.is(asciiJson({ a: 'plain' }), JSON.stringify({ a: 'plain' }))
  // list pages too: their head, their members made once per snapshot and their text parts
  const page = jsonWithList({ label: 'ü' }, 'data', [['{', Buffer.from(asciiJson({ n: 'ß' }).slice(1, -1)), '}']]).toBuffer()
  assert.ok(page.every((byte) => byte < 0x80))
  assert.equal(JSON.parse(page.toString()), { label: 'ü', data: [{ n: 'ß' }] })
})

test('toBuffer :: an empty list and an empty head', () => {
  assert.is(jsonWithList({}, 'data', []).toBuffer().toString(), '{"data":[]}')
  assert.is(jsonWithList({ total: 0 }, 'data', [], []).toBuffer().toString(), '{"total":0,"data":[]}')
})

test('toBuffer :: bodies made one after another keep their own bytes', () => {
  const first = jsonWithList({ n: 1 }, 'data', [['"é"']]).toBuffer()
  const copy = Buffer.from(first)
  for (let i = 0; i < 1000; i++) jsonWithList({ n: i }, 'data', [[`"${'x'.repeat(i % 97)}"`]]).toBuffer()
  assert.ok(first.equals(copy))
})

test.run()
