import type { Storage } from 'unstorage'
import type { MaybePromise } from '../internal/maybe_promise.ts'
import type { Plan } from './types.ts'

/** A key as stored: its SHA-256 hash, never the key. */
export interface KeyRecord {
  name: string
  hash: string
  createdAt: string
  revokedAt: string | null
}

/** An account as stored under `access:accounts:<userId>`; its keys are indexed by hash under `access:keys:<hash>`. */
export interface AccountRecord {
  userId: number
  plan: Plan
  apiAccess: boolean
  createdAt: string
  keys: KeyRecord[]
}

/**
 * How long this process trusts an account record it has read. Changes made in this process apply at once; changes
 * made by another process (the operator CLI, another instance) apply within this time.
 */
const ACCOUNT_CACHE_MS = 1000

const accountItem = (userId: number) => `access:accounts:${userId}`
const keyItem = (hash: string) => `access:keys:${hash}`

/**
 * Accounts and the key index on unstorage, with a short-lived in-process copy so a request rarely waits on storage:
 * what this process knows is returned at once, the rest is read (a promise).
 */
export class AccountRecords {
  /** A key's account never changes (revocation lives on the account), so found entries are kept for good. */
  private readonly accountOfKey = new Map<string, number>()
  private readonly accounts = new Map<number, { record: AccountRecord; until: number }>()

  constructor(private readonly storage: Storage) {}

  userIdOfKey(hash: string): MaybePromise<number | null> {
    return this.accountOfKey.get(hash) ?? this.readUserIdOfKey(hash)
  }

  account(userId: number): MaybePromise<AccountRecord | null> {
    const cached = this.accounts.get(userId)
    return cached && cached.until > Date.now() ? cached.record : this.readAccount(userId)
  }

  /** Fresh from storage, for changes: the operator must never edit a stale copy. */
  async accountForUpdate(userId: number): Promise<AccountRecord | null> {
    this.accounts.delete(userId)
    return this.account(userId)
  }

  async save(record: AccountRecord): Promise<void> {
    await this.storage.setItem(accountItem(record.userId), record)
    this.accounts.set(record.userId, { record, until: Date.now() + ACCOUNT_CACHE_MS })
  }

  async indexKey(hash: string, userId: number): Promise<void> {
    await this.storage.setItem(keyItem(hash), userId)
    this.accountOfKey.set(hash, userId)
  }

  private async readUserIdOfKey(hash: string): Promise<number | null> {
    const stored = await this.storage.getItem<number>(keyItem(hash))
    if (stored === null) return null
    this.accountOfKey.set(hash, Number(stored))
    return Number(stored)
  }

  private async readAccount(userId: number): Promise<AccountRecord | null> {
    const record = await this.storage.getItem<AccountRecord>(accountItem(userId))
    if (record) this.accounts.set(userId, { record, until: Date.now() + ACCOUNT_CACHE_MS })
    return record
  }

  async userIds(): Promise<number[]> {
    const keys = await this.storage.getKeys('access:accounts')
    return keys.map((key) => Number(key.slice(key.lastIndexOf(':') + 1))).sort((a, b) => a - b)
  }
}
