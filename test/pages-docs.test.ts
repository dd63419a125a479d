import fs from 'node:fs'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openBrowser, saveScreenshot } from './_browser.ts'
import { setup } from './_setup.ts'

const test = suite('pages /docs')

test('root :: / leads to the API reference', async () => {
  const { server } = await setup()
  const res = await fetch(server.url, { redirect: 'manual' })
  assert.is(res.status, 302)
  assert.is(res.headers.get('location'), '/docs')
})

test('docs :: the page and its scripts come from our origin, with a policy that allows no other', async () => {
  const { server } = await setup()
  const page = await fetch(`${server.url}docs`)
  assert.is(page.status, 200)
  assert.match(page.headers.get('content-type')!, /^text\/html/)
  assert.match(page.headers.get('content-security-policy')!, /default-src 'self'/)
  const html = await page.text()
  const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1])
  assert.equal(scripts, ['/docs/scalar.js', '/docs/init.js'])
  for (const src of scripts) {
    const res = await fetch(new URL(src, server.url))
    assert.is(res.status, 200, src)
    assert.match(res.headers.get('content-type')!, /^text\/javascript/)
  }
})

test('docs :: in Chromium every operation is listed and a try-it call with a key answers 200', async () => {
  const { server, key } = await setup()
  const operations = Object.keys(((await (await fetch(`${server.url}openapi.json`)).json()) as any).paths)
  const browser = await openBrowser()
  try {
    const page = await browser.newPage()
    await page.setViewport({ width: 1280, height: 900 })
    const origin = new URL(server.url).origin
    const elsewhere: string[] = []
    const calls: { url: string; status: number; key: string | undefined }[] = []
    page.on('request', (r) => {
      if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) elsewhere.push(r.url())
    })
    page.on('response', (r) => {
      if (r.url().includes('/api/v1/')) calls.push({ url: r.url(), status: r.status(), key: r.request().headers()['x-api-key'] })
    })
    await page.goto(`${server.url}docs`, { waitUntil: 'networkidle0', timeout: 60_000 })

    // the page renders after its scripts have run: on a busy machine, after the network is idle
    const pageText = () => page.evaluate(() => (globalThis as any).document.body.innerText as string)
    await page
      .waitForFunction((paths: string[]) => paths.every((path) => ((globalThis as any).document.body.innerText as string).includes(path)), { timeout: 60_000 }, operations)
      .catch(() => undefined)
    const text = await pageText()
    const missing = operations.filter((path) => !text.includes(path))
    assert.equal(missing, [], 'operations missing from the page')

    const auth = await page.waitForSelector('input[id^="scalar-refs-"]')
    await auth!.type(key)
    // the operation's section (rendered when shown)
    await page.goto(`${server.url}docs#tag/reference/GET/api/v1/get_categories`, { waitUntil: 'networkidle0' })
    const tryIt = await page.waitForSelector('xpath/.//button[contains(., "get /api/v1/get_categories)")]', { timeout: 30_000 })
    assert.ok(tryIt, 'a Test Request button for get_categories')
    await tryIt!.click()
    const send = await page.waitForSelector('xpath/.//button[contains(., "Send get request")]', { timeout: 30_000 })
    assert.ok(send, 'the Send button of the API client')
    await send!.click()
    await page.waitForResponse((r) => r.url().includes('/api/v1/get_categories'), { timeout: 30_000 })
    await page.waitForFunction(() => ((globalThis as any).document.body.innerText as string).includes('Venture Capitals'), { timeout: 30_000 })
    const screenshot = await saveScreenshot(page, 'docs-try-it')

    assert.equal(calls.map(({ status, key: sent }) => ({ status, sent })), [{ status: 200, sent: key }])
    assert.equal(elsewhere, [], 'requests that left the server')
    assert.ok(fs.statSync(screenshot).size > 10_000, 'a screenshot of the page')
  } finally {
    await browser.close()
  }
})

test.run()
