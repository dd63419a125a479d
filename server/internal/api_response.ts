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
  private web: Response | undefined

  constructor(
    private readonly bytes: Buffer,
    /** Name, value, …, names in lower case; `content-length` is added when Node writes it. */
    private readonly lines: string[],
    private readonly code: number,
  ) {
    super(bytes, { status: code, statusText: STATUS_CODES[code] })
  }

  // @ts-expect-error a property in the DOM types; here the web view's, made when read
  override get headers(): Headers {
    return this._response.headers
  }

  /**
   * The web view: srvx's `FastResponse` forwards every member it does not define itself (`body`, `json()`,
   * `clone()`…) to `_response`, so they all see these headers.
   */
  get _response(): Response {
    if (this.web === undefined) {
      const headers = new Headers()
      for (let i = 0; i < this.lines.length; i += 2) headers.append(this.lines[i], this.lines[i + 1])
      this.web = new NativeResponse(this.bytes, { status: this.code, statusText: STATUS_CODES[this.code], headers })
    }
    return this.web
  }

  /** What srvx's Node adapter writes, once per response (see `_sendNodeResponse` in srvx/adapters/node). */
  _toNodeResponse(): { status: number; statusText: string | undefined; headers: string[]; body: Buffer } {
    const { lines, bytes, code } = this
    lines.push('content-length', String(bytes.length))
    return { status: code, statusText: STATUS_CODES[code], headers: lines, body: bytes }
  }
}

/** The runtime's own `Response` (srvx keeps it under this symbol when its Node adapter replaces the global one). */
const NativeResponse = ((globalThis as Record<symbol, unknown>)[Symbol.for('srvx.nativeResponse')] ??
  globalThis.Response) as typeof Response
