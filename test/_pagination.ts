/**
 * The spec's shared pagination rules, checked for one operation through HTTP: every size-table row (default, cap,
 * non-numeric, below 1), page fallbacks, page past the end, `pages` ≥ 1 and `size` = items returned.
 * Call with parameters that yield at least a few items so the size rules are visible.
 *
 * @example paginationCases(GetFollowers, 'get_followers', () => ({ username }), { default: 10, max: 25 }, 'top_followers')
 */
import type { Test } from 'uvu'
import * as assert from 'uvu/assert'
import { setup, type TestEnv } from './_setup.ts'

export function paginationCases(
  test: Test,
  operation: string,
  params: () => Promise<Record<string, string | number>> | Record<string, string | number>,
  sizes: { default: number; max: number },
  key: string,
  /** The server to ask (default the shared one); an operation whose data lives in another snapshot passes its own. */
  server: () => Promise<Pick<TestEnv, 'get'>> = setup,
): void {
  const page = async (extra: Record<string, string | number>) => {
    const { get } = await server()
    const res = await get(operation, { ...(await params()), ...extra })
    assert.is(res.body.success, true, JSON.stringify(res.body))
    return res.body
  }
  const expectShape = (body: any, total: number, pageSize: number, pageNo = 1) => {
    assert.is(body.total, total)
    assert.is(body.page, pageNo)
    assert.is(body.pages, Math.max(1, Math.ceil(total / pageSize)))
    const items = Math.max(0, Math.min(pageSize, total - (pageNo - 1) * pageSize))
    assert.is(body[key].length, items)
    assert.is(body.size, items)
  }

  test(`pagination :: default size is ${sizes.default}`, async () => {
    const body = await page({})
    assert.ok(body.total > 1, 'the parameters must yield several items')
    expectShape(body, body.total, sizes.default)
  })
  test(`pagination :: size above ${sizes.max} is capped`, async () => {
    const body = await page({ size: sizes.max + 1000 })
    expectShape(body, body.total, sizes.max)
    // beyond 2^53 it is still a number above the maximum, not a non-numeric value
    expectShape(await page({ size: '99999999999999999999' }), body.total, sizes.max)
  })
  test('pagination :: non-numeric size falls back to the default', async () => {
    for (const size of ['abc', '2.5', '']) expectShape(await page({ size }), (await page({})).total, sizes.default)
  })
  test('pagination :: size below 1 becomes 1', async () => {
    for (const size of [0, -5]) expectShape(await page({ size }), (await page({})).total, 1)
  })
  test('pagination :: size within range is honoured and pages follow it', async () => {
    const body = await page({ size: 2 })
    expectShape(body, body.total, 2)
    const second = await page({ size: 2, page: 2 })
    expectShape(second, body.total, 2, 2)
    const firstFour = await page({ size: 4 })
    assert.equal([...body[key], ...second[key]], firstFour[key])
  })
  test('pagination :: non-numeric, 0 or negative page is page 1', async () => {
    const first = await page({ size: 1 })
    for (const p of ['abc', 0, -3]) assert.equal(await page({ size: 1, page: p }), first)
  })
  test('pagination :: a page past the end is empty with the same total and pages', async () => {
    const first = await page({ size: 1 })
    const past = await page({ size: 1, page: first.pages + 1 })
    assert.is(past.total, first.total)
    assert.is(past.pages, first.pages)
    assert.is(past.page, first.pages + 1)
    assert.equal(past[key], [])
    assert.is(past.size, 0)
    const far = await page({ size: 1, page: '99999999999999999999' })
    assert.equal([far.total, far.pages, far[key], far.size], [first.total, first.pages, [], 0])
    // however many digits: a finite page number, past the end
    const huge = await page({ size: 1, page: '9'.repeat(400) })
    assert.equal([huge.total, huge.pages, huge[key], huge.size], [first.total, first.pages, [], 0])
    assert.ok(Number.isSafeInteger(huge.page) && huge.page > first.pages, String(huge.page))
  })
}
