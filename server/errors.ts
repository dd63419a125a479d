/**
 * The spec's closed list of error codes, the one function that builds the error body, and the one table from code
 * to real HTTP status (used only when real statuses are enabled; the compatibility default answers every error with 200).
 */

export const ERROR_CODES = [
  'api_key_missing',
  'api_key_invalid',
  'api_access_deactivated',
  'api_key_revoked',
  'invalid_params',
  'account_not_found',
  'method_not_allowed',
  'rate_limited',
  'quota_exceeded',
  'server_error',
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

/** Real HTTP status of each code, applied when `API_REAL_STATUS=1`. */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  api_key_missing: 401,
  api_key_invalid: 401,
  api_key_revoked: 401,
  api_access_deactivated: 403,
  invalid_params: 400,
  account_not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  quota_exceeded: 429,
  server_error: 500,
}

const DOCS_BASE_URL = process.env.API_DOCS_URL ?? 'https://docs.example.org/account-scoring-api/errors'

export interface ErrorBody {
  success: false
  message: string
  error: { code: ErrorCode; message: string; docs_url: string }
}

/**
 * Build the spec's error body.
 * @example errorBody('account_not_found', 'Account not found') // { success: false, message, error: { code, message, docs_url } }
 */
export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return { success: false, message, error: { code, message, docs_url: `${DOCS_BASE_URL}#${code}` } }
}

/**
 * The typed error every layer throws; the app turns it into the error body (and `headers`, e.g. `Retry-After`).
 * @example throw new ApiError('invalid_params', 'username or platform_id is required')
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'ApiError'
  }
}
