/**
 * The spec's account-identification rules, checked for one operation through HTTP: each variant must answer
 * exactly what the canonical `platform_id` request answers. Accounts are picked from the snapshot by SQL.
 *
 * @example accountResolutionCases(GetFollowers, 'get_followers', 'fallback')
 */
import type { Test } from 'uvu'
import * as assert from 'uvu/assert'
import { setup, type TestEnv } from './_setup.ts'

export interface Picked {
  a: { id: string; username: string }
  b: { id: string; username: string }
  slug: { id: string; slug: string }
  previous: { id: string; old: string }
}

let picked: Promise<Picked> | null = null

/** Two busy monitored accounts, one whose slug differs from its handle, one renamed account (memoised). */
export function pickAccounts(): Promise<Picked> {
  picked ??= (async () => {
    const { query } = await setup()
    const busy = await query<{ id: string; username: string }>(`
      SELECT platform_id::VARCHAR AS id, username FROM accounts
      WHERE is_tracked AND is_monitored AND smart_followers_count > 1
      ORDER BY smart_followers_count DESC, platform_id LIMIT 2`)
    const [slug] = await query<{ id: string; slug: string }>(`
      SELECT platform_id::VARCHAR AS id, slug FROM accounts a
      WHERE slug IS NOT NULL AND slug <> lower(username) AND smart_followers_count > 0
        AND NOT EXISTS (SELECT 1 FROM accounts o WHERE lower(o.username) = a.slug)
      ORDER BY smart_followers_count DESC, platform_id LIMIT 1`)
    const [previous] = await query<{ id: string; old: string }>(`
      SELECT p.platform_id::VARCHAR AS id, p.username AS old FROM previous_usernames p JOIN accounts a USING (account_idx)
      WHERE a.smart_followers_count > 0
        AND NOT EXISTS (SELECT 1 FROM accounts o WHERE lower(o.username) = lower(p.username) OR o.slug = lower(p.username))
        AND NOT EXISTS (SELECT 1 FROM previous_usernames q WHERE lower(q.username) = lower(p.username) AND q.account_idx <> p.account_idx)
      ORDER BY a.smart_followers_count DESC, p.platform_id LIMIT 1`)
    assert.is(busy.length, 2, 'the tiny snapshot needs two monitored accounts with smart followers')
    assert.ok(slug, 'the tiny snapshot needs an account whose slug differs from its handle')
    assert.ok(previous, 'the tiny snapshot needs a renamed account')
    return { a: busy[0], b: busy[1], slug, previous }
  })()
  return picked
}

export function accountResolutionCases(
  test: Test,
  operation: string,
  mode: 'fallback' | 'precedence',
  extra: Record<string, string | number> = {},
  /** Accounts to test with (default `pickAccounts`); an operation whose data lives elsewhere picks its own. */
  pick: () => Promise<Picked> = pickAccounts,
  /** The server to ask (default the shared one); an operation whose data lives in another snapshot passes its own. */
  server: () => Promise<Pick<TestEnv, 'get'>> = setup,
): void {
  const body = async (params: Record<string, string | number>) => (await (await server()).get(operation, { ...extra, ...params })).body
  const canonical = (id: string) => body({ platform_id: id })

  test('account :: the two test accounts answer differently (precondition)', async () => {
    const { a, b } = await pick()
    assert.not.equal(await canonical(a.id), await canonical(b.id))
  })
  test('account :: @, surrounding whitespace, trailing slash and any case resolve the current username', async () => {
    const { a } = await pick()
    const expected = await canonical(a.id)
    assert.is(expected.success ?? true, true)
    for (const username of [a.username, `@${a.username}`, `  ${a.username} `, `${a.username}/`, ` @${a.username.toUpperCase()}/ `]) {
      assert.equal(await body({ username }), expected, username)
    }
  })
  test('account :: a slug resolves its account', async () => {
    const { slug } = await pick()
    assert.equal(await body({ username: slug.slug }), await canonical(slug.id))
  })
  test('account :: a previous username resolves the renamed account', async () => {
    const { previous } = await pick()
    assert.equal(await body({ username: previous.old }), await canonical(previous.id))
  })
  test('account :: platform_id is tried before username', async () => {
    const { a, b } = await pick()
    assert.equal(await body({ platform_id: a.id, username: b.username }), await canonical(a.id))
  })
  if (mode === 'fallback') {
    test('account :: an unknown platform_id falls back to username', async () => {
      const { b } = await pick()
      assert.equal(await body({ platform_id: '18446744073709551615', username: b.username }), await canonical(b.id))
    })
  } else {
    test('account :: platform_id takes precedence: an unknown id is account_not_found even with a valid username', async () => {
      const { b } = await pick()
      const res = await body({ platform_id: '18446744073709551615', username: b.username })
      assert.is(res.error.code, 'account_not_found')
    })
  }
  test('account :: neither username nor platform_id is invalid_params', async () => {
    for (const params of [{}, { username: '' }, { username: ' @/ ' }] as Record<string, string>[]) {
      const res = await body(params)
      assert.is(res.success, false)
      assert.is(res.error.code, 'invalid_params')
      assert.is(res.message, 'username or platform_id is required')
    }
  })
  test('account :: nothing resolves → account_not_found', async () => {
    for (const params of [{ username: 'no_such_handle_zz9' }, { platform_id: '18446744073709551615' }] as Record<string, string>[]) {
      const res = await body(params)
      assert.is(res.success, false)
      assert.is(res.error.code, 'account_not_found')
    }
  })
}
