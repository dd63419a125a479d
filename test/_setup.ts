/**
 * Shared test setup (built once per process, whichever test file asks first): a tiny generated snapshot for today
 * (UTC), the real server on an ephemeral loopback port with real access services (embedded store in a temp dir)
 * and one account + key, a `get` helper over HTTP and a DuckDB `query` helper over the snapshot's Parquet files
 * for independently computed expectations.
 *
 * @example const { get, query } = await setup(); const res = await get('get_followers', { username: 'x' })
 */
import fs from 'node:fs'
import path from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { buildSnapshot } from '../pipeline/build.ts'
import { createSnapshotViews } from '../pipeline/snapshot-sql.ts'
import { generateRaw } from '../scripts/generate/index.ts'
import { createServices, type AccessServices } from '../server/access/index.ts'
import { serverConfigFromEnv, type ServerConfig } from '../server/config.ts'
import { defineOperation, type Operation } from '../server/operations/define.ts'
import { startServer, type RunningServer } from '../server/main.ts'
import { tempDir } from './_fixtures.ts'

export interface Response<T = any> {
  status: number
  headers: Headers
  body: T
}

export interface GetOptions {
  /** Key to send; null sends none. Default: the setup's key. */
  key?: string | null
  /** How to send it (default the `X-API-Key` header). */
  via?: 'header' | 'bearer' | 'query'
  method?: string
}

export interface TestEnv {
  today: string
  snapshotsDir: string
  snapshotDir: string
  config: ServerConfig
  server: RunningServer
  services: AccessServices
  key: string
  userId: number
  /** GET `/api/v1/<operation>` (or any path starting with `/`) with query params. */
  get<T = any>(operation: string, params?: Record<string, string | number>, options?: GetOptions): Promise<Response<T>>
  /** Rows of a DuckDB query over the snapshot: views named after the files (`accounts`, `smart_followers`, …). */
  query<T = Record<string, any>>(sql: string): Promise<T[]>
  /** Another server on the same snapshot and storage with different settings (e.g. real statuses); closed by the caller. */
  startAnother(overrides: Partial<ServerConfig>): Promise<RunningServer>
}

let env: Promise<TestEnv> | null = null

export function setup(): Promise<TestEnv> {
  env ??= create()
  return env
}

async function create(): Promise<TestEnv> {
  const root = tempDir('api-test')
  const today = new Date().toISOString().slice(0, 10)
  const rawDir = path.join(root, 'raw')
  const snapshotsDir = path.join(root, 'snapshots')
  await generateRaw({ scale: 'tiny', seed: 42, outDir: rawDir, endDate: today })
  await buildSnapshot({ rawDir, snapshotsDir, date: today })
  const snapshotDir = fs.realpathSync(path.join(snapshotsDir, 'current'))

  const services = await createServices({ driver: 'embedded', dataDir: path.join(root, 'data') })
  const account = await services.admin.createAccount({ monthlyQuota: 1_000_000, rate: '1000000/minute' })
  const { key } = await services.admin.createKey(account.userId, 'tests')

  const config: ServerConfig = {
    ...serverConfigFromEnv({ DATA_DIR: path.join(root, 'data') }),
    port: 0,
    host: '127.0.0.1',
    snapshotsDir,
  }
  const startAnother = async (overrides: Partial<ServerConfig>) => {
    const another = await startServer({ ...config, ...overrides }, services)
    another.server.unref()
    return another
  }
  const server = await startAnother({})
  const query = await snapshotQuery(snapshotDir)

  return {
    today,
    snapshotsDir,
    snapshotDir,
    config,
    server,
    services,
    key,
    userId: account.userId,
    get: (operation, params = {}, options = {}) => request(server.url, key, operation, params, options),
    query,
    startAnother,
  }
}

/** An operation whose handler throws `error` (an unexpected exception: the server answers `server_error`). */
export function failingOperation(name: string, error: Error): Operation {
  return defineOperation({
    name,
    groups: ['Reference'],
    summary: 'throws',
    parameters: [],
    response: {},
    cache: 'never',
    handle() {
      throw error
    },
  })
}

/** GET helper usable against any running server; every body must be ASCII JSON (docs/api.md), or it throws. */
export async function request(
  baseUrl: string,
  defaultKey: string,
  operation: string,
  params: Record<string, string | number> = {},
  { key = defaultKey, via = 'header', method = 'GET' }: GetOptions = {},
): Promise<Response> {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))
  const headers: Record<string, string> = {}
  if (key !== null && via === 'header') headers['x-api-key'] = key
  if (key !== null && via === 'bearer') headers.authorization = `Bearer ${key}`
  if (key !== null && via === 'query') query.set('api_key', key)
  const pathname = operation.startsWith('/') ? operation.slice(1) : `api/v1/${operation}`
  const qs = query.toString()
  const res = await fetch(`${baseUrl}${pathname}${qs ? `?${qs}` : ''}`, { method, headers })
  const bytes = Buffer.from(await res.arrayBuffer())
  const outside = bytes.findIndex((byte) => byte > 0x7f)
  if (outside !== -1) throw new Error(`${pathname}: a byte outside ASCII at ${outside} of the body`)
  const text = bytes.toString('utf8')
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null }
}

/** A DuckDB `query` helper over one snapshot folder: the views of `npm run sql` (one per Parquet file, named after it,
 * one per history table, and the derived views). */
export async function snapshotQuery(snapshotDir: string): Promise<TestEnv['query']> {
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  await createSnapshotViews(conn, snapshotDir)
  return (sql) => rows(conn, sql)
}

/** Query rows as plain objects; BIGINT/UBIGINT values come back as strings (ids exceed 2^53). */
async function rows<T>(conn: DuckDBConnection, sql: string): Promise<T[]> {
  const reader = await conn.runAndReadAll(sql)
  return reader.getRowObjectsJS().map(
    (row) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v])) as T,
  )
}
