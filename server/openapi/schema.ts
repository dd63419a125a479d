/**
 * JSON Schema builders for the OpenAPI document (3.1 = JSON Schema 2020-12). Routes describe their responses
 * with these next to the handler, and the shapes shared by several responses are defined here once.
 *
 * @example object({ id: integer(), name: string() }) // every listed property required, no others allowed
 */
export type JsonSchema = Record<string, unknown>

/** An OpenAPI query parameter. */
export interface Parameter {
  name: string
  description: string
  schema: JsonSchema
  required?: boolean
}

export const string = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra })
export const integer = (extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', ...extra })
export const number = (extra: JsonSchema = {}): JsonSchema => ({ type: 'number', ...extra })
export const boolean = (): JsonSchema => ({ type: 'boolean' })
export const nullable = (schema: JsonSchema): JsonSchema => ({ ...schema, type: [schema.type as string, 'null'] })
export const array = (items: JsonSchema): JsonSchema => ({ type: 'array', items })

/** A closed object: every listed property is required and no other is allowed. */
export function object(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false }
}

export const date = () => string({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' })
/** Account ids exceed 2^53: always strings of digits. */
export const id = () => string({ pattern: '^\\d+$' })
export const score = () => number({ minimum: 0, maximum: 1000 })

/** `{id, name}`: tags and categories on follower and follow-event rows. */
export const plainReference = () => object({ id: integer(), name: string() })

/**
 * The pagination envelope with its array key.
 * @example envelope('top_followers', followerRow)
 */
export function envelope(key: string, item: JsonSchema, extra: Record<string, JsonSchema> = {}): JsonSchema {
  return object({
    success: { const: true },
    total: integer({ minimum: 0 }),
    page: integer({ minimum: 1 }),
    size: integer({ minimum: 0 }),
    pages: integer({ minimum: 1 }),
    ...extra,
    [key]: array(item),
  })
}

/** The error body of `server/errors.ts`. */
export const errorBodySchema = (codes: readonly string[]): JsonSchema =>
  object({
    success: { const: false },
    message: string(),
    error: object({ code: string({ enum: [...codes] }), message: string(), docs_url: string({ format: 'uri' }) }),
  })

/** `{tag_id, tag_name}`: tags of the target in score-sum and mentioners responses. */
export const prefixedTag = () => object({ tag_id: integer(), tag_name: string() })
/** `{category_id, category_name}`: categories of the target in score-sum and mentioners responses. */
export const prefixedCategory = () => object({ category_id: integer(), category_name: string() })
