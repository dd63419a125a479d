import { fingerprint, generateApiKey, hashApiKey } from './api-keys.ts'
import type { Backend } from './stores/interface.ts'
import { DEFAULT_PLAN, parseRate, resolvePlan } from './plans.ts'
import type { AccountRecord, AccountRecords, KeyRecord } from './records.ts'
import type { AccessAdmin, Account, KeyInfo } from './types.ts'

/** An operator error (unknown account or key, bad plan, duplicate key name): its message is meant to be shown as is. */
export class AccessAdminError extends Error {
  override name = 'AccessAdminError'
}

const keyInfo = ({ name, hash, createdAt, revokedAt }: KeyRecord): KeyInfo => ({
  name,
  fingerprint: fingerprint(hash),
  createdAt,
  revokedAt,
})

const accountView = ({ keys, ...account }: AccountRecord): Account => ({ ...account, keys: keys.map(keyInfo) })

/** Accounts, plans and keys for the operator. Raw keys exist only in `createKey`'s return value. */
export function createAccessAdmin(records: AccountRecords, backend: Backend): AccessAdmin {
  async function load(userId: number): Promise<AccountRecord> {
    const record = Number.isSafeInteger(userId) ? await records.accountForUpdate(userId) : null
    if (!record) throw new AccessAdminError(`Unknown account: user_id ${userId}`)
    return record
  }
  function plan(input: Parameters<typeof resolvePlan>[0], base = DEFAULT_PLAN) {
    try {
      return resolvePlan(input, base)
    } catch (error) {
      throw new AccessAdminError((error as Error).message)
    }
  }
  /** Read, edit and write an account record under its lock, so changes from several processes never undo each other. */
  function update(userId: number, change: (record: AccountRecord) => void): Promise<AccountRecord> {
    return backend.exclusive(`account-${userId}`, async () => {
      const record = await load(userId)
      change(record)
      await records.save(record)
      return record
    })
  }

  return {
    async createAccount(input = {}) {
      const record: AccountRecord = {
        userId: await backend.nextUserId(),
        plan: plan(input),
        apiAccess: true,
        createdAt: new Date().toISOString(),
        keys: [],
      }
      await records.save(record)
      return accountView(record)
    },
    async getAccount(userId) {
      return accountView(await load(userId))
    },
    async listAccounts() {
      const ids = await records.userIds()
      return Promise.all(ids.map(async (id) => accountView(await load(id))))
    },
    async setPlan(userId, input) {
      return accountView(await update(userId, (record) => void (record.plan = plan(input, record.plan))))
    },
    async createKey(userId, name) {
      if (!name.trim()) throw new AccessAdminError('A key needs a name')
      const key = generateApiKey()
      const hash = hashApiKey(key)
      const created: KeyRecord = { name, hash, createdAt: new Date().toISOString(), revokedAt: null }
      await update(userId, (record) => {
        if (record.keys.some((existing) => existing.name === name)) {
          throw new AccessAdminError(`Account ${userId} already has a key named "${name}"`)
        }
        record.keys.push(created)
      })
      await records.indexKey(hash, userId)
      return { key, info: keyInfo(created) }
    },
    async listKeys(userId) {
      return (await load(userId)).keys.map(keyInfo)
    },
    async revokeKey(userId, name) {
      let revoked: KeyRecord | undefined
      await update(userId, (record) => {
        revoked = record.keys.find((key) => key.name === name)
        if (!revoked) throw new AccessAdminError(`Unknown key: account ${userId} has no key named "${name}"`)
        revoked.revokedAt ??= new Date().toISOString()
      })
      return keyInfo(revoked!)
    },
    async setApiAccess(userId, enabled) {
      return accountView(await update(userId, (record) => void (record.apiAccess = enabled)))
    },
    async usage(userId) {
      const { plan } = await load(userId)
      const counted = await backend.counters.quota(userId)
      const used = counted?.used ?? 0
      return {
        userId,
        quota: {
          total: plan.monthlyQuota,
          used,
          remaining: Math.max(0, plan.monthlyQuota - used),
          resetAt: counted ? new Date(counted.resetAt) : null,
        },
        rate: parseRate(plan.rate),
      }
    },
  }
}
