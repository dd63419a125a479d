/**
 * Operator CLI for accounts, plans and API keys, on the same storage as the server (STORAGE_DRIVER, DATA_DIR,
 * REDIS_URL). Raw keys are printed once, by create-key, on stdout alone, so `KEY=$(npm run -s keys -- create-key …)`
 * captures exactly the key.
 *
 * @example npm run keys -- create-account --plan-quota 10000 --plan-rate 1000/minute
 * @example npm run keys -- create-key --user 1 --name production
 */
import { parseArgs } from 'node:util'
import { AccessAdminError, createServices, rateUnit, storageConfigFromEnv } from '../server/access/index.ts'
import type { AccessAdmin, Account, KeyInfo, Plan } from '../server/access/index.ts'

const USAGE = `Usage: npm run keys -- <command> [options]

  create-account [--plan-quota N] [--plan-rate R]   new account (defaults: 10000 per month, 1000/minute)
  set-plan --user ID [--plan-quota N] [--plan-rate R]
  create-key --user ID --name NAME                  prints the new key once; only its hash is stored
  list-keys --user ID
  revoke-key --user ID --name NAME
  deactivate --user ID                              refuse every key of the account (api_access_deactivated)
  reactivate --user ID
  usage --user ID                                   monthly quota used, remaining and reset time
  list-accounts

Rates are <requests>/<second|minute|hour|day> (any case, plural too); an unknown unit counts as minute.
Storage comes from STORAGE_DRIVER (embedded|redis), DATA_DIR (./data) and REDIS_URL, as for the server.`

type Options = { user?: string; name?: string; 'plan-quota'?: string; 'plan-rate'?: string }
type Command = (admin: AccessAdmin, options: Options) => Promise<string>

const COMMANDS: Record<string, Command> = {
  'create-account': async (admin, options) => describeAccount(await admin.createAccount(planOf(options)), 'Created'),
  'set-plan': async (admin, options) => describeAccount(await admin.setPlan(userOf(options), planOf(options)), 'Updated'),
  'create-key': async (admin, options) => {
    const { key, info } = await admin.createKey(userOf(options), required(options, 'name'))
    process.stderr.write(`Key "${info.name}" (fingerprint ${info.fingerprint}) created for account ${userOf(options)}. ` +
      'It is shown only now: store it safely.\n')
    return key
  },
  'list-keys': async (admin, options) => {
    const keys = await admin.listKeys(userOf(options))
    return keys.length ? keys.map(describeKey).join('\n') : `Account ${userOf(options)} has no keys.`
  },
  'revoke-key': async (admin, options) =>
    `Revoked ${describeKey(await admin.revokeKey(userOf(options), required(options, 'name')))}`,
  deactivate: async (admin, options) => describeAccount(await admin.setApiAccess(userOf(options), false), 'Deactivated'),
  reactivate: async (admin, options) => describeAccount(await admin.setApiAccess(userOf(options), true), 'Reactivated'),
  usage: async (admin, options) => {
    const { userId, quota, rate } = await admin.usage(userOf(options))
    return [
      `user_id ${userId}`,
      `monthly quota: ${quota.used} used of ${quota.total}, ${quota.remaining} remaining, ` +
        (quota.resetAt ? `resets at ${quota.resetAt.toISOString()}` : 'no window open'),
      `rate: ${rate.total} per ${rate.period} per operation bucket`,
    ].join('\n')
  },
  'list-accounts': async (admin) => {
    const accounts = await admin.listAccounts()
    return accounts.length ? accounts.map((account) => describeAccount(account, 'Account')).join('\n') : 'No accounts.'
  },
}

function describeAccount({ userId, plan, apiAccess, keys }: Account, verb: string): string {
  const active = keys.filter((key) => !key.revokedAt).length
  // the spec's fallback for a unit it does not know; said aloud, since a typo makes the rate per minute
  const unit = rateUnit(plan.rate) ? '' : ` (no unit of second, minute, hour or day: counted per minute)`
  return `${verb} user_id ${userId}: ${plan.monthlyQuota} per month, ${plan.rate}${unit}, API access ${apiAccess ? 'on' : 'off'}, ` +
    `${active} active key(s) of ${keys.length}`
}

function describeKey({ name, fingerprint, createdAt, revokedAt }: KeyInfo): string {
  return `${name}\tfingerprint ${fingerprint}\tcreated ${createdAt}\t${revokedAt ? `revoked ${revokedAt}` : 'active'}`
}

function required(options: Options, name: keyof Options): string {
  const value = options[name]
  if (!value) throw new AccessAdminError(`--${name} is required`)
  return value
}

function userOf(options: Options): number {
  const value = required(options, 'user')
  if (!/^\d+$/.test(value)) throw new AccessAdminError(`--user must be an integer user_id, not "${value}"`)
  return Number(value)
}

function planOf(options: Options): Partial<Plan> {
  const plan: Partial<Plan> = {}
  const quota = options['plan-quota']
  if (quota !== undefined) {
    if (!/^\d+$/.test(quota)) throw new AccessAdminError(`--plan-quota must be an integer ≥ 0, not "${quota}"`)
    plan.monthlyQuota = Number(quota)
  }
  if (options['plan-rate'] !== undefined) plan.rate = options['plan-rate']
  return plan
}

/** The command line, or null after a flag mistake (an unknown flag, a flag without its value: written with the usage). */
function commandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        user: { type: 'string' },
        name: { type: 'string' },
        'plan-quota': { type: 'string' },
        'plan-rate': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    process.stderr.write(`Error: ${(error as Error).message}\n${USAGE}\n`)
    return null
  }
}

async function main(): Promise<number> {
  const line = commandLine()
  if (!line) return 2
  const { positionals, values } = line
  if (values.help) {
    process.stdout.write(USAGE + '\n')
    return 0
  }
  const command = COMMANDS[positionals[0] ?? '']
  if (!command) {
    process.stderr.write(USAGE + '\n')
    return 2
  }
  const services = await createServices(storageConfigFromEnv())
  try {
    process.stdout.write((await command(services.admin, values)) + '\n')
    return 0
  } catch (error) {
    if (!(error instanceof AccessAdminError)) throw error
    process.stderr.write(`Error: ${error.message}\n`)
    return 1
  } finally {
    await services.close()
  }
}

process.exitCode = await main().catch((error: Error) => {
  process.stderr.write(`Error: ${error.message}\n`)
  return 1
})
