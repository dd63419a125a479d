/** JSON bodies written into bytes (`server/internal/json_writer.ts`) and the page envelope written with it. */
import * as assert from 'uvu/assert'
import { suite } from 'uvu'
import { asciiJson, jsonMembers } from '../server/json.ts'
import { jsonBytes, JsonWriter } from '../server/internal/json_writer.ts'
import { DAY_MS, formatDay, isoUtcMillis, isoUtcOffset } from '../server/params/dates.ts'
import { endPage, listPage, pageWriter } from '../server/params/page.ts'

const test = suite('json writer')

const written = (write: (out: JsonWriter) => void, sizeHint = 64) => {
  const out = new JsonWriter(sizeHint)
  write(out)
  return out.toBuffer().toString('utf8')
}

test('dates :: every day and time format is the text of rules/dates.ts, across years 0000–9999 and past them', () => {
  // a pseudo-random walk over instants with every part of a date and time, plus the edges of each range
  const instants = [0, -1, 1, DAY_MS - 1, Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(2100, 2, 1), Date.UTC(2000, 1, 29)]
  instants.push(-719_528 * DAY_MS, -719_468 * DAY_MS, -719_468 * DAY_MS - 1, 2_932_896 * DAY_MS, 2_932_897 * DAY_MS - 1, 2_932_897 * DAY_MS)
  let seed = 7
  for (let i = 0; i < 20_000; i++) {
    seed = (seed * 48_271) % 2_147_483_647
    instants.push(Math.round((seed / 2_147_483_647 - 0.35) * 4e14))
  }
  for (const ms of instants) {
    const day = Math.floor(ms / DAY_MS)
    assert.is(written((out) => out.day(day)), formatDay(day), `day ${day}`)
    assert.is(written((out) => out.isoUtcMillis(ms)), isoUtcMillis(ms), `ms ${ms}`)
    assert.is(written((out) => out.isoUtcOffset(ms)), isoUtcOffset(ms), `ms ${ms}`)
  }
  assert.is(written((out) => out.day(19_000.5)), formatDay(19_000.5), 'a fraction of a day')
  // instants outside 0000-03-01…9999-12-31 are written too (as the text functions write them)
  assert.is(written((out) => out.isoUtcMillis(-719_528 * DAY_MS - 1)), isoUtcMillis(-719_528 * DAY_MS - 1))
})

test('text, bytes and numbers :: written in order, non-ASCII text as UTF-8, odd numbers as JSON writes them', () => {
  const members = Buffer.from(asciiJson({ name: 'Zoë' }).slice(1, -1))
  const body = written((out) => {
    out.text('{')
    out.bytes(members)
    out.text(',"label":"ünïcode 🚀","n":')
    out.number(-1.5e-7)
    out.text(',"nan":')
    out.number(Number.NaN)
    out.text(',"big":')
    out.number(2 ** 60)
    out.text(',"value":')
    out.json({ a: ['é', null] })
    out.text('}')
  })
  assert.equal(JSON.parse(body), { name: 'Zoë', label: 'ünïcode 🚀', n: -1.5e-7, nan: null, big: 2 ** 60, value: { a: ['é', null] } })
})

test('numbers :: every integer and float as JSON.stringify writes it', () => {
  const values = [0, -0, 1, 9, 10, 99, 100, 101, 2 ** 31 - 1, 2 ** 31, 2 ** 53, -1, -(2 ** 31), 0.1, 1.5, 1e21, -1e-7, 123456.789]
  for (let n = 1; n < 2 ** 31; n = n * 3 + 7) values.push(n, n - 1, n + 0.5)
  for (const value of values) assert.is(written((out) => out.number(value)), JSON.stringify(value), String(value))
  for (const value of [Number.NaN, Infinity, -Infinity]) assert.is(written((out) => out.number(value)), 'null')
})

test('size hints :: a short hint grows the buffer, a long one keeps only the bytes written', () => {
  const long = 'x'.repeat(5000)
  assert.is(written((out) => out.text(`"${long}"`), 1), `"${long}"`)
  const parts = Array.from({ length: 300 }, (_, i) => Buffer.from(`{"i":${i}}`))
  const body = written((out) => {
    out.text('[')
    for (const part of parts) {
      out.item()
      out.bytes(part)
    }
    out.text(']')
  }, 8)
  assert.equal(JSON.parse(body), parts.map((_, i) => ({ i })))
  const generous = new JsonWriter(100_000)
  generous.text('{}')
  assert.is(generous.toBuffer().length, 2)
})

test('bodies :: written one after another, each keeps its own bytes', () => {
  const out = new JsonWriter(16)
  out.text('"first é"')
  const first = out.toBuffer()
  const copy = Buffer.from(first)
  for (let i = 0; i < 2000; i++) written((next) => next.text(`"${'y'.repeat(i % 300)}"`), i % 50)
  assert.ok(first.equals(copy))
})

test('pageWriter, listPage :: the bytes of the envelope’s value, with the members after the page fields', () => {
  const request = { page: 2, size: 3 }
  const items = [{ n: 1, at: 1_700_000_000_123 }, { n: 2, at: 0 }]
  const out = pageWriter(request, 7, 'data', items.length, 10, [Buffer.from('"target":{"id":"1"}'), '"window":7'])
  for (const item of items) {
    out.item()
    out.text('{"n":')
    out.number(item.n)
    out.text(',"at":"')
    out.isoUtcMillis(item.at)
    out.text('"}')
  }
  const data = items.map((item) => ({ n: item.n, at: isoUtcMillis(item.at) }))
  const envelope = { success: true, total: 7, page: 2, size: 2, pages: 3, target: { id: '1' }, window: 7 }
  assert.is(endPage(out).toString(), asciiJson({ ...envelope, data }))
  const parts = [Buffer.from(jsonMembers({ name: 'Zoë', n: 1 })), Buffer.from(jsonMembers({ name: 'b', n: 2 }))]
  const list = listPage(request, 7, 'mentions', parts, [jsonMembers({ days: 7 })])
  assert.is(list.toString(), asciiJson({ success: true, total: 7, page: 2, size: 2, pages: 3, days: 7, mentions: [{ name: 'Zoë', n: 1 }, { name: 'b', n: 2 }] }))
  const empty = endPage(pageWriter({ page: 1, size: 10 }, 0, 'data', 0, 0))
  assert.is(empty.toString(), '{"success":true,"total":0,"page":1,"size":0,"pages":1,"data":[]}')
})

test('jsonBytes :: text and byte parts in order', () => {
  const body = jsonBytes(['{"success":true,', Buffer.from(jsonMembers({ name: 'Zoë' })), ',"sum":1.5,', Buffer.from('"tags":[]'), '}'])
  assert.is(body.toString(), asciiJson({ success: true, name: 'Zoë', sum: 1.5, tags: [] }))
})

test.run()
