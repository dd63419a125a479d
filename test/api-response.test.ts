/** `ApiResponse` (`server/internal/api_response.ts`): the lines Node writes, and a web view with the same headers. */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as assert from 'uvu/assert'
import { suite } from 'uvu'
import { H3, toNodeHandler } from 'h3'
import { ApiResponse } from '../server/internal/api_response.ts'

const test = suite('api response')

const body = () => Buffer.from('{"success":false,"message":"Rate limit exceeded"}')
const lines = () => ['content-type', 'application/json; charset=utf-8', 'x-cache', 'MISS', 'retry-after', '7']

test('web view :: status, every header line, the body, and a clone keep what was given', async () => {
  const response = new ApiResponse(body(), lines(), 429)
  assert.is(response.status, 429)
  assert.is(response.statusText, 'Too Many Requests')
  assert.is(response.headers.get('retry-after'), '7')
  assert.is(response.headers.get('x-cache'), 'MISS')
  const copy = response.clone()
  assert.is(copy.headers.get('content-type'), 'application/json; charset=utf-8')
  // `bytes()` (Node ≥ 20.16; not in this project's DOM types) reaches the web view, not a field of the same name
  const bytes = await (new ApiResponse(body(), lines(), 429) as unknown as { bytes(): Promise<Uint8Array> }).bytes()
  assert.is(Buffer.from(bytes).toString(), body().toString())
  assert.equal(await response.json(), { success: false, message: 'Rate limit exceeded' })
  assert.equal(await copy.json(), { success: false, message: 'Rate limit exceeded' })
})

test('node :: the lines handed to Node carry one content-length however often they are asked for', () => {
  const response = new ApiResponse(body(), lines(), 200)
  response._toNodeResponse()
  const { headers } = response._toNodeResponse()
  assert.equal(headers.filter((_, i) => i % 2 === 0 && headers[i] === 'content-length').length, 1)
  assert.is(headers[headers.indexOf('content-length') + 1], String(body().length))
})

test('node :: an h3 app on a real socket writes the status, the lines and the content length', async () => {
  const app = new H3().get('/x', () => new ApiResponse(body(), lines(), 429))
  const server = createServer(toNodeHandler(app))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    const { port } = server.address() as AddressInfo
    const res = await fetch(`http://127.0.0.1:${port}/x`)
    assert.is(res.status, 429)
    assert.is(res.headers.get('retry-after'), '7')
    assert.is(res.headers.get('x-cache'), 'MISS')
    assert.is(res.headers.get('content-length'), String(body().length))
    assert.is(await res.text(), body().toString())
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
})

test.run()
