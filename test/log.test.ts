/** The shared logger (`pipeline/log.ts`): JSON lines on stderr, with API keys redacted in every form a request can carry. */
import * as assert from 'uvu/assert'
import { suite } from 'uvu'
import { isApiKeyParamName, log, redact } from '../pipeline/log.ts'
import { stderrOf } from './_capture.ts'

const test = suite('log')

const KEY = 'ask_' + 'Ab3_-x'.repeat(7) + 'z'

test('redact :: a key in every form a URL can carry it, and the line stays valid JSON', async () => {
  const urls = [
    `/api/v1/get_followers?username=a&api_key=${KEY}`,
    `/api/v1/get_followers?api%5Fkey=${KEY}&username=a`,
    `/api/v1/get_followers?%61pi_key=${KEY.replace('_', '%5F')}&username=a`,
    `/api/v1/get_followers?API_KEY=${KEY}`,
    `/api/v1/get_followers?username=${KEY}`,
  ]
  for (const url of urls) {
    const line = await stderrOf(() => log.error('request.unexpected_error', { url, note: `key ${KEY} in text` }))
    assert.not.ok(line.includes(KEY), url)
    assert.not.ok(line.includes(KEY.slice(4, 30)), url)
    const parsed = JSON.parse(line)
    assert.match(parsed.url, /^\/api\/v1\/get_followers\?/)
    assert.match(parsed.url, /\[redacted\]/)
    assert.is(parsed.note, 'key [redacted] in text')
  }
  // values that are not keys of ours, sent as the credential: redacted by the parameter's name, to their very end
  const secrets = [
    ['/x?api%5Fkey=secretvalue1&page=2', '/x?api%5Fkey=[redacted]&page=2'],
    ['/x?page=2&API_KEY=secretvalue2', '/x?page=2&API_KEY=[redacted]'],
    ['/x?api_key=secret\\value3"quoted&page=2', '/x?api_key=[redacted]&page=2'],
  ]
  for (const [url, expected] of secrets) {
    const line = await stderrOf(() => log.warn('request.logged', { url }))
    assert.not.ok(/secret|value/.test(line), line)
    assert.is(JSON.parse(line).url, expected)
  }
  // other parameters are kept as they are
  assert.is(redact('/x?username=alice&page=2'), '/x?username=alice&page=2')
  assert.is(redact(`/x?api_key=${KEY}&page=2`), '/x?api_key=[redacted]&page=2')
})

test('redact :: isApiKeyParamName decodes as URLSearchParams does', () => {
  for (const name of ['api_key', 'api%5Fkey', 'api%5fkey', '%61pi_key', '%61%70%69%5F%6B%65%79']) {
    assert.ok(isApiKeyParamName(name), name)
    assert.ok(new URLSearchParams(`${name}=1`).has('api_key'), name)
  }
  for (const name of ['api_keys', 'apikey', 'api%5Fkeys', 'api%ZZkey', 'api key']) assert.not.ok(isApiKeyParamName(name), name)
})

test.run()
