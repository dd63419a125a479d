/**
 * Validate a real response against the server's own `/openapi.json`: the schema of the operation's response for
 * the status it came with (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses).
 *
 * @example assertMatchesOpenApi(await openApi(), 'get_followers', res)
 */
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import * as assert from 'uvu/assert'
import { setup, type Response } from './_setup.ts'

type Validator = (operation: string, res: Response) => void

let validator: Promise<Validator> | null = null

/** Compiled once per process from the served document. */
export function openApi(): Promise<Validator> {
  validator ??= (async () => {
    const { get } = await setup()
    const doc = (await get('/openapi.json')).body
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats(ajv)
    ajv.addSchema(doc, 'openapi')
    return (operation: string, res: Response) => {
      const pointer = ['paths', `/api/v1/${operation}`, 'get', 'responses', String(res.status), 'content', 'application/json', 'schema']
        .map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1'))
        .join('/')
      const validate = ajv.getSchema(`openapi#/${pointer}`)
      assert.ok(validate, `no response schema for ${operation} status ${res.status}`)
      const valid = validate!(res.body)
      assert.ok(valid, `${operation} response does not match OpenAPI: ${ajv.errorsText(validate!.errors)}`)
    }
  })()
  return validator
}

/** Assert the response matches the operation's documented schema. */
export async function assertMatchesOpenApi(operation: string, res: Response): Promise<void> {
  ;(await openApi())(operation, res)
}
