/**
 * `/llms.txt` and `/llms-full.txt` (the llmstxt.org convention): the API described in Markdown for agents, generated
 * from the OpenAPI document, which is itself generated from the operations' declarations, so the three never drift.
 * `llms.txt` is the index (one line per operation); `llms-full.txt` adds each operation's parameters, an example
 * request and its response fields.
 *
 * @example llmsTxt(buildOpenApi(operations), { exampleUsername: 'alice' })
 */

type Schema = { type?: string | string[]; enum?: unknown[]; const?: unknown; default?: unknown; examples?: unknown[] } & {
  minimum?: number; maximum?: number; items?: Schema; properties?: Record<string, Schema>; anyOf?: Schema[]; $ref?: string
}
type Parameter = { name: string; description: string; required: boolean; schema: Schema }
type Get = { operationId: string; summary: string; description?: string; tags: string[]; deprecated?: boolean } & {
  parameters: Parameter[]
  responses: Record<string, { content?: { 'application/json': { schema: Schema } } }>
}
/** The part of our OpenAPI document this module reads. */
export interface OpenApiDocument {
  info: { title: string; version: string; description: string }
  tags: { name: string; description: string }[]
  paths: Record<string, { get: Get }>
}

export interface LlmsOptions {
  /** A real handle of the served snapshot for the examples (default `<username>`). */
  exampleUsername?: string
}

function header(doc: OpenApiDocument): string[] {
  return [
    `# ${doc.info.title}`,
    '',
    `> ${doc.info.description}`,
    '',
    `Version ${doc.info.version}. Every operation is \`GET /api/v1/<name>\` and answers JSON. Send the key as the`,
    '`X-API-Key: <key>` header (preferred), `Authorization: Bearer <key>`, or the `api_key=<key>` query parameter.',
    'Account operations take `username` or `platform_id` (ids are strings of digits in responses: they exceed 2^53).',
    'Errors are `{"success": false, "message": ..., "error": {"code", "message", "docs_url"}}`, with HTTP 200 unless the',
    'server runs with real statuses; branch on `success`. Codes: api_key_missing, api_key_invalid, api_access_deactivated,',
    'api_key_revoked, invalid_params, account_not_found, method_not_allowed, rate_limited (with `Retry-After`),',
    'quota_exceeded, server_error. Scores are 0–1000 and measure audience quality, recomputed once a day.',
    '',
    '- [OpenAPI document](/openapi.json): the machine-readable contract',
    '- [Interactive reference](/docs): try any operation with a key',
    '- [Full text for agents](/llms-full.txt): every operation with its parameters, an example and its response fields',
    '',
  ]
}

/** The header, then each group's heading and the lines `render` makes of the group's operations. */
function byGroup(doc: OpenApiDocument, render: (operations: [string, Get][]) => string[]): string {
  const lines = header(doc)
  for (const { name } of doc.tags) {
    const operations = Object.entries(doc.paths)
      .filter(([, item]) => item.get.tags[0] === name)
      .map(([path, item]): [string, Get] => [path, item.get])
    lines.push(`## ${name}`, '', ...render(operations))
  }
  return lines.join('\n')
}

function typeOf(schema: Schema): string {
  if (schema.$ref) return schema.$ref.split('/').at(-1)!
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ')
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any']
  return types.map((t) => (t === 'array' && schema.items ? `array of ${typeOf(schema.items)}` : t)).join(' or ')
}

function parameterLine(p: Parameter): string {
  const facts = [typeOf(p.schema), p.required ? 'required' : 'optional']
  if (p.schema.default !== undefined) facts.push(`default ${JSON.stringify(p.schema.default)}`)
  if (p.schema.enum) facts.push(`one of ${p.schema.enum.map((v) => JSON.stringify(v)).join(', ')}`)
  return `- \`${p.name}\` (${facts.join(', ')}): ${p.description}`
}

/** An example query: the account by handle when the operation takes one (or a list of them), then the required ones. */
function exampleQuery(get: Get, options: LlmsOptions): string {
  const pairs: string[] = []
  for (const p of get.parameters) {
    if (p.name === 'username' || p.name === 'usernames') pairs.push(`${p.name}=${encodeURIComponent(options.exampleUsername ?? '<username>')}`)
    else if (p.name === 'platform_id') continue
    else if (p.required) pairs.push(`${p.name}=${String(p.schema.examples?.[0] ?? p.schema.default ?? `<${p.name}>`)}`)
  }
  return pairs.length ? `?${pairs.join('&')}` : ''
}

function responseLines(get: Get): string[] {
  const schema = get.responses['200']?.content?.['application/json'].schema
  const success = schema?.anyOf?.find((s) => !s.$ref) ?? schema
  const properties = success?.properties ?? {}
  return Object.entries(properties).map(([name, s]) => {
    const item = s.items?.properties
    const fields = item ? `: items with ${Object.keys(item).map((k) => `\`${k}\``).join(', ')}` : ''
    return `- \`${name}\` (${typeOf(s)})${fields}`
  })
}

/** The index: a line per operation, by group. */
export function llmsTxt(doc: OpenApiDocument): string {
  return byGroup(doc, (operations) => [
    ...operations.map(([path, get]) => {
      const note = get.deprecated ? ' (deprecated)' : ''
      return `- [${path.replace('/api/v1/', '')}](${path})${note}: ${get.description ?? get.summary}`
    }),
    '',
  ])
}

/** The whole API: each operation with its parameters, an example request and its response fields. */
export function llmsFullTxt(doc: OpenApiDocument, options: LlmsOptions = {}): string {
  return byGroup(doc, (operations) =>
    operations.flatMap(([path, get]) => {
      const lines = [`### GET ${path}${get.deprecated ? ' (deprecated)' : ''}`, '', get.description ?? get.summary, '']
      if (get.parameters.length) lines.push('Parameters:', '', ...get.parameters.map(parameterLine), '')
      lines.push('Example:', '', '```sh', `curl -H "X-API-Key: $KEY" "$BASE_URL${path}${exampleQuery(get, options)}"`, '```', '')
      const response = responseLines(get)
      if (response.length) lines.push('Response fields (success):', '', ...response, '')
      return lines
    }),
  )
}
