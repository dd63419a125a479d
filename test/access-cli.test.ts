/**
 * The operator CLI (`npm run keys`), run as the operator runs it: a separate process on the same storage as the
 * server, configured by STORAGE_DRIVER, DATA_DIR and REDIS_URL.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ApiError } from '../server/errors.ts'
import { createServices } from '../server/access/index.ts'
import { startRedis, type RedisServer } from './_redis.ts'
import { tempDir } from './_fixtures.ts'

const ROOT = path.resolve(import.meta.dirname, '..')

function keys(env: Record<string, string>, ...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/keys.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  })
  return { code: run.status, stdout: run.stdout.trim(), stderr: run.stderr.trim() }
}

/** Admit one call the way the server does, on a fresh instance, and report the outcome. */
async function admitOnce(dataDir: string, key: string): Promise<string> {
  const services = await createServices({ driver: 'embedded', dataDir })
  try {
    await services.access.admit({ headers: new Headers({ 'x-api-key': key }), query: new URLSearchParams() }, 'api-limits')
    return 'ok'
  } catch (error) {
    if (error instanceof ApiError) return error.code
    throw error
  } finally {
    await services.close()
  }
}

const cli = suite<{ env: Record<string, string>; dataDir: string; key: string }>('keys CLI [embedded]')

cli.before((ctx) => {
  ctx.dataDir = tempDir('access-cli')
  ctx.env = { STORAGE_DRIVER: 'embedded', DATA_DIR: ctx.dataDir }
})

cli('create-account :: prints the new user_id and its plan', (ctx) => {
  const created = keys(ctx.env, 'create-account', '--plan-quota', '3', '--plan-rate', '2/hour')
  assert.is(created.code, 0, created.stderr)
  assert.is(created.stdout, 'Created user_id 1: 3 per month, 2/hour, API access on, 0 active key(s) of 0')
})

cli('create-key :: prints the raw key alone on stdout, once; list-keys shows a fingerprint, never the key', (ctx) => {
  const created = keys(ctx.env, 'create-key', '--user', '1', '--name', 'production')
  assert.is(created.code, 0, created.stderr)
  assert.match(created.stdout, /^ask_[A-Za-z0-9_-]{43}$/)
  ctx.key = created.stdout
  const fingerprint = createHash('sha256').update(ctx.key).digest('hex').slice(0, 12)
  assert.match(created.stderr, new RegExp(`fingerprint ${fingerprint}.*shown only now`))
  const listed = keys(ctx.env, 'list-keys', '--user', '1')
  assert.match(listed.stdout, new RegExp(`^production\\tfingerprint ${fingerprint}\\tcreated \\S+\\tactive$`))
  assert.not.ok(listed.stdout.includes(ctx.key))
})

cli('usage :: shows the calls the server counted', async (ctx) => {
  assert.is(await admitOnce(ctx.dataDir, ctx.key), 'ok')
  assert.is(await admitOnce(ctx.dataDir, ctx.key), 'ok')
  const usage = keys(ctx.env, 'usage', '--user', '1')
  assert.match(usage.stdout, /monthly quota: 2 used of 3, 1 remaining, resets at \d{4}-\d\d-\d\dT/)
  assert.match(usage.stdout, /rate: 2 per hour per operation bucket/)
})

cli('deactivate, reactivate, revoke-key :: the server refuses and accepts accordingly', async (ctx) => {
  assert.is(keys(ctx.env, 'deactivate', '--user', '1').code, 0)
  assert.is(await admitOnce(ctx.dataDir, ctx.key), 'api_access_deactivated')
  assert.match(keys(ctx.env, 'reactivate', '--user', '1').stdout, /^Reactivated user_id 1: .*API access on/)
  assert.match(keys(ctx.env, 'revoke-key', '--user', '1', '--name', 'production').stdout, /^Revoked production\t.*\trevoked \S+$/)
  assert.is(await admitOnce(ctx.dataDir, ctx.key), 'api_key_revoked')
})

cli('set-plan :: a rate with no known unit is accepted (per minute, as the spec says) and said to count per minute', (ctx) => {
  const account = keys(ctx.env, 'create-account', '--plan-rate', '5/fortnight')
  assert.is(account.code, 0, account.stderr)
  assert.match(account.stdout, /^Created user_id 2: 10000 per month, 5\/fortnight \(no unit of second, minute, hour or day: counted per minute\)/)
  const fixed = keys(ctx.env, 'set-plan', '--user', '2', '--plan-rate', '5/Hours')
  assert.match(fixed.stdout, /^Updated user_id 2: 10000 per month, 5\/Hours, API access on/)
  assert.match(keys(ctx.env, 'usage', '--user', '2').stdout, /rate: 5 per hour per operation bucket/)
})

cli('errors :: unknown accounts and keys exit 1 with a clear message; an unknown command prints the usage', (ctx) => {
  const unknownAccount = keys(ctx.env, 'set-plan', '--user', '99', '--plan-quota', '5')
  assert.equal([unknownAccount.code, unknownAccount.stderr], [1, 'Error: Unknown account: user_id 99'])
  const unknownKey = keys(ctx.env, 'revoke-key', '--user', '1', '--name', 'staging')
  assert.equal([unknownKey.code, unknownKey.stderr], [1, 'Error: Unknown key: account 1 has no key named "staging"'])
  const unknownCommand = keys(ctx.env, 'delete-everything')
  assert.is(unknownCommand.code, 2)
  assert.match(unknownCommand.stderr, /^Usage: npm run keys -- <command>/)
  for (const args of [['create-key', '--usr', '1'], ['list-keys', '--user']]) {
    const mistake = keys(ctx.env, ...args)
    assert.is(mistake.code, 2, args.join(' '))
    assert.match(mistake.stderr, /^Error: .*\n[^]*Usage: npm run keys -- <command>/)
  }
  const help = keys(ctx.env, '--help')
  assert.equal([help.code, help.stderr], [0, ''])
  assert.match(help.stdout, /^Usage: npm run keys -- <command>/)
})

cli('secrets :: nothing in the data directory holds the raw key', (ctx) => {
  const files = fs.readdirSync(ctx.dataDir, { recursive: true, encoding: 'utf8' }).map((f) => path.join(ctx.dataDir, f))
  const stored = files.filter((f) => fs.statSync(f).isFile()).map((f) => f + fs.readFileSync(f, 'utf8')).join('\n')
  assert.ok(stored.includes(createHash('sha256').update(ctx.key).digest('hex')))
  assert.not.ok(stored.includes(ctx.key))
})

cli.run()

const onRedis = suite<{ redis: RedisServer }>('keys CLI [redis]')

onRedis.before(async (ctx) => {
  ctx.redis = await startRedis()
})
onRedis.after(async (ctx) => ctx.redis?.stop())

onRedis('redis :: STORAGE_DRIVER=redis and REDIS_URL put accounts and keys in Redis', async (ctx) => {
  const env = { STORAGE_DRIVER: 'redis', REDIS_URL: ctx.redis.url, DATA_DIR: '/nonexistent' }
  assert.match(keys(env, 'create-account').stdout, /^Created user_id 1: 10000 per month, 1000\/minute/)
  const key = keys(env, 'create-key', '--user', '1', '--name', 'k').stdout
  const services = await createServices({ driver: 'redis', dataDir: '/nonexistent', redisUrl: ctx.redis.url })
  const admission = await services.access.admit({ headers: new Headers(), query: new URLSearchParams({ api_key: key }) }, 'api-limits')
  await services.close()
  assert.is(admission.userId, 1)
  assert.match(keys(env, 'usage', '--user', '1').stdout, /monthly quota: 1 used of 10000/)
})

onRedis.run()
