/**
 * A response of the API's operations, kept as Node.js writes it: the body's bytes and the header lines as one flat
 * list (name, value, name, value…; names in lower case). srvx's Node adapter asks a response for `_toNodeResponse()`
 * and hands its list to `writeHead`; a `FastResponse` made with a header object would first list the object's
 * entries (an array per field) and lower-case each name into a new list. This one hands over its own list.
 * The web view (`headers`, `body`, `json()`, `clone()`…, used when the app is called with a `Request`) is a native
 * `Response` made from the same bytes and lines, only when asked for.
 *
 * @example new ApiResponse(Buffer.from('{"success":true}'), ['content-type', 'application/json'], 200)
 */
import { STATUS_CODES } from 'node:http'
import { FastResponse } from 'srvx'

export class ApiResponse extends FastResponse {
  // private fields (#): an own property named `bytes` would hide `Response.prototype.bytes()`
  readonly #bytes: Buffer
  /** Name, value, …, names in lower case; `content-length` is added when Node writes it. */
  readonly #lines: string[]
  readonly #code: number
  #lengthAdded = false
  #web: Response | undefined

  constructor(bytes: Buffer, lines: string[], code: number) {
    super(bytes, { status: code, statusText: STATUS_CODES[code] })
    this.#bytes = bytes
    this.#lines = lines
    this.#code = code
  }

  // @ts-expect-error a property in the DOM types; here the web view's, made when read
  override get headers(): Headers {
    return this._response.headers
  }

  /**
   * The web view: srvx's `FastResponse` forwards every member it does not define itself (`body`, `bytes()`,
   * `json()`, `clone()`…) to `_response`, so they all see these headers.
   */
  get _response(): Response {
    if (this.#web === undefined) {
      const lines = this.#lines
      const headers = new Headers()
      for (let i = 0; i < lines.length; i += 2) headers.append(lines[i], lines[i + 1])
      this.#web = new NativeResponse(this.#bytes, { status: this.#code, statusText: STATUS_CODES[this.#code], headers })
    }
    return this.#web
  }

  /** What srvx's Node adapter writes (see `_sendNodeResponse` in srvx/adapters/node): the lines and their length. */
  _toNodeResponse(): { status: number; statusText: string | undefined; headers: string[]; body: Buffer } {
    const lines = this.#lines
    if (!this.#lengthAdded) {
      lines.push('content-length', String(this.#bytes.length))
      this.#lengthAdded = true
    }
    return { status: this.#code, statusText: STATUS_CODES[this.#code], headers: lines, body: this.#bytes }
  }
}

/** The runtime's own `Response` (srvx keeps it under this symbol when its Node adapter replaces the global one). */
const NativeResponse = ((globalThis as Record<symbol, unknown>)[Symbol.for('srvx.nativeResponse')] ??
  globalThis.Response) as typeof Response
