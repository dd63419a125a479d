/**
 * Access control for the API: keys, plans, the monthly quota, per-bucket rates, rate-limit headers and the response
 * cache, on unstorage (embedded by default, Redis to scale out). See docs/access.md.
 */
export type * from './types.ts'
export { readApiKey, type KeySource } from './credentials.ts'
export { createServices, storageConfigFromEnv } from './services.ts'
export { AccessAdminError } from './admin.ts'
export { parseRate, QUOTA_WINDOW_MS, rateUnit } from './plans.ts'
