import type { Storage } from 'unstorage'
import type { Account } from './types.ts'

/** A key as stored: its SHA-256 hash, never the key. */
export interface KeyRecord {
  name: string
  hash: string
  createdAt: string
  revokedAt: string | null
}

/** An account as stored under `access:accounts:<userId>`; its keys are indexed by hash under `access:keys:<hash>`. */
export interface AccountRecord extends Omit<Account, 'keys'> {
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
 * Accounts and the key index on unstorage, with a short-lived in-process copy so most requests do not wait on
 * storage. Requests that need the same record while it is being read share that one read.
 */
export class AccountRecords {
  /** A key's account never changes (revocation lives on the account), so found entries are kept for good. */
  private readonly accountOfKey = new Map<string, number>()
  private readonly accounts = new Map<number, { record: AccountRecord; until: number }>()
  private readonly readingKeys = new Map<string, Promise<number | null>>()
  private readonly readingAccounts = new Map<number, Promise<AccountRecord | null>>()

  constructor(private readonly storage: Storage) {}

  async userIdOfKey(hash: string): Promise<number | null> {
    return this.accountOfKey.get(hash) ?? this.readUserIdOfKey(hash)
  }

  /** The account's record: the copy held while it is trusted, else read again. */
  async account(userId: number): Promise<AccountRecord | null> {
    const held = this.accounts.get(userId)
    return held && held.until > Date.now() ? held.record : this.readAccount(userId)
  }

  /** Fresh from storage, for changes: the operator must never edit a stale copy. */
  accountForUpdate(userId: number): Promise<AccountRecord | null> {
    return this.readRecord(userId)
  }

  async save(record: AccountRecord): Promise<void> {
    await this.storage.setItem(accountItem(record.userId), record)
    this.hold(record)
  }

  async indexKey(hash: string, userId: number): Promise<void> {
    await this.storage.setItem(keyItem(hash), userId)
    this.accountOfKey.set(hash, userId)
  }

  private readUserIdOfKey(hash: string): Promise<number | null> {
    return singleFlight(this.readingKeys, hash, async () => {
      const stored = checked(await this.storage.getItem<unknown>(keyItem(hash)), keyItem(hash), isUserId)
      if (stored === null) return null
      this.accountOfKey.set(hash, Number(stored))
      return Number(stored)
    })
  }

  private readAccount(userId: number): Promise<AccountRecord | null> {
    return singleFlight(this.readingAccounts, userId, async () => {
      const record = await this.readRecord(userId)
      if (!record) {
        this.accounts.delete(userId)
        return null
      }
      this.hold(record)
      return record
    })
  }

  private async readRecord(userId: number): Promise<AccountRecord | null> {
    return checked(await this.storage.getItem<unknown>(accountItem(userId)), accountItem(userId), isAccountRecord)
  }

  private hold(record: AccountRecord): void {
    this.accounts.set(record.userId, { record, until: Date.now() + ACCOUNT_CACHE_MS })
  }

  async userIds(): Promise<number[]> {
    const keys = await this.storage.getKeys('access:accounts')
    return keys.map((key) => Number(key.slice(key.lastIndexOf(':') + 1))).sort((a, b) => a - b)
  }
}

/** The running read under `key`, or a new one that leaves `running` when it settles. */
function singleFlight<K, T>(running: Map<K, Promise<T>>, key: K, read: () => Promise<T>): Promise<T> {
  let pending = running.get(key)
  if (!pending) {
    pending = read().finally(() => running.delete(key))
    running.set(key, pending)
  }
  return pending
}

/**
 * A stored value, or an error naming the item when it is not what was written. unstorage's fs drivers answer a
 * failed read other than "not found" (EMFILE, ELOOP, EACCES…) with the error object as the item's value: it must
 * fail this request, never be kept as a record.
 */
function checked<T>(value: unknown, item: string, isValid: (value: unknown) => value is T): T | null {
  if (value === null || value === undefined) return null
  if (isValid(value)) return value
  const reason = value instanceof Error ? value.message : `unexpected value of type ${typeof value}`
  throw new Error(`storage item ${item} could not be read: ${reason}`)
}

function isUserId(value: unknown): value is number | string {
  return (typeof value === 'number' || typeof value === 'string') && Number.isSafeInteger(Number(value))
}

function isAccountRecord(value: unknown): value is AccountRecord {
  const record = value as AccountRecord
  return typeof value === 'object' && !(value instanceof Error) && Number.isSafeInteger(record.userId) && Array.isArray(record.keys) && typeof record.plan === 'object'
}
