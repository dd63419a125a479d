/**
 * The pages for people and agents, none of which needs a key: `/` (leads to the reference), `/docs` (the
 * interactive reference and its two scripts), `/llms.txt` and `/llms-full.txt`.
 *
 * @example addPages(app, buildOpenApi(operations), () => snapshots.current)
 */
import type { H3, H3Event } from 'h3'
import type { Snapshot } from '../snapshot/load.ts'
import { addApiReference, API_REFERENCE_PATH } from './api-reference.ts'
import { llmsFullTxt, llmsTxt, type OpenApiDocument } from './llms-txt.ts'

const MARKDOWN = 'text/markdown; charset=utf-8'

function typed<T>(event: H3Event, type: string, body: T): T {
  event.res.headers.set('content-type', type)
  return body
}

export function addPages(app: H3, document: OpenApiDocument, current: () => Snapshot): void {
  const index = llmsTxt(document)
  app.get('/', (event) => {
    event.res.status = 302
    event.res.headers.set('location', API_REFERENCE_PATH)
    return ''
  })
  addApiReference(app)
  app.get('/llms.txt', (event) => typed(event, MARKDOWN, index))
  // its examples name an account of the served snapshot: made once per snapshot
  let full = { snapshotId: '', text: '' }
  app.get('/llms-full.txt', (event) => {
    const snapshot = current()
    if (full.snapshotId !== snapshot.id) {
      full = { snapshotId: snapshot.id, text: llmsFullTxt(document, { exampleUsername: topUsername(snapshot) }) }
    }
    return typed(event, MARKDOWN, full.text)
  })
}

/** The best-ranked tracked account's handle: a real example for the agents' text. */
function topUsername(snapshot: Snapshot): string | undefined {
  const { rank, username } = snapshot.accounts
  const idx = rank.indexOf(1)
  return idx === -1 ? undefined : username.at(idx)
}
