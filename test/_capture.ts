/**
 * Helpers for the access tests: a GET's outcome over a given agent (for many concurrent requests on bounded
 * sockets), and what is written to stderr (where the server and the pipeline log) while some work runs.
 * @example await outcomeOf(agent, `${url}api/v1/get_categories`, { 'x-api-key': key }) // 'ok' or 'quota_exceeded'…
 */
import http from 'node:http'

/** One GET over `agent`: 'ok' for a success body, else the body's error code. */
export function outcomeOf(agent: http.Agent, url: string | URL, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
        res.on('end', () => {
          try {
            const body = JSON.parse(text)
            resolve(body.success === false ? body.error.code : 'ok')
          } catch (error) {
            reject(error)
          }
        })
      })
      .on('error', reject)
  })
}

/** Everything written to stderr while `run` runs (restored after, whatever happens). */
export async function stderrOf(run: () => unknown): Promise<string> {
  let text = ''
  const original = process.stderr.write
  process.stderr.write = ((chunk: string | Uint8Array) => {
    text += String(chunk)
    return true
  }) as typeof process.stderr.write
  try {
    await run()
  } finally {
    process.stderr.write = original
  }
  return text
}
