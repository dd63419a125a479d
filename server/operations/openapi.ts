/**
 * The OpenAPI 3.1 document, assembled from the operations' own declarations (parameters and response schemas live
 * beside each handler), the error body of `errors.ts` and the three ways to send a key.
 *
 * @example buildOpenApi(operations).paths['/api/v1/get_followers'].get.parameters
 */
import { ERROR_CODES, ERROR_STATUS } from '../errors.ts'
import { operationPath, type Group, type Operation } from './define.ts'
import { errorBodySchema } from '../openapi/schema.ts'

const GROUPS: { name: Group; description: string }[] = [
  { name: 'Scores', description: 'Platform scores of accounts.' },
  { name: 'Accounts', description: 'Account information.' },
  { name: 'Followers', description: 'Smart followers and follower counts.' },
  { name: 'Mentions', description: 'Mentions and mentioners.' },
  { name: 'Lists', description: 'Ranked lists.' },
  { name: 'History', description: 'Follower-count and follow/unfollow history.' },
  { name: 'Reference', description: 'Reference lists and the caller’s limits.' },
]

const ERROR_REF = { $ref: '#/components/schemas/ErrorBody' }

export function buildOpenApi(operations: Operation[]) {
  const realStatuses = [...new Set(Object.values(ERROR_STATUS))].sort()
  const paths: Record<string, unknown> = {}
  for (const operation of operations) {
    paths[operationPath(operation)] = {
      get: {
        operationId: operation.name.replace('/', '_'),
        summary: operation.name,
        description: operation.summary,
        tags: operation.groups,
        ...(operation.deprecated ? { deprecated: true } : {}),
        parameters: operation.parameters.map((p) => ({
          in: 'query',
          name: p.name,
          description: p.description,
          required: p.required ?? false,
          schema: p.schema,
        })),
        responses: {
          '200': {
            description:
              'Success body, or the error body while errors are returned with HTTP 200 (compatibility mode, the default).',
            content: { 'application/json': { schema: { anyOf: [operation.response, ERROR_REF] } } },
          },
          ...Object.fromEntries(
            realStatuses.map((status) => [
              String(status),
              {
                description: `Error body with its real status (when API_REAL_STATUS=1): ${ERROR_CODES.filter((c) => ERROR_STATUS[c] === status).join(', ')}.`,
                content: { 'application/json': { schema: ERROR_REF } },
              },
            ]),
          ),
        },
      },
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Account Scoring API',
      version: '1.0.0',
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Read-only JSON API about crypto-focused accounts: platform scores, smart followers, mentions, follow history and ranked lists, recalculated daily.',
    },
    servers: [{ url: '/' }],
    tags: GROUPS,
    security: [{ ApiKeyHeader: [] }, { BearerAuth: [] }, { ApiKeyQuery: [] }],
    paths,
    components: {
      securitySchemes: {
        ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Preferred.' },
        BearerAuth: { type: 'http', scheme: 'bearer', description: '`Authorization: Bearer <API_KEY>`.' },
        ApiKeyQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'api_key',
          description: 'Original form; still works, but keys in URLs end up in logs and referers.',
        },
      },
      schemas: { ErrorBody: errorBodySchema(ERROR_CODES) },
    },
  }
}
