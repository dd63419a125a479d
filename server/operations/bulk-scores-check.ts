/** GET /api/v1/bulk_scores_check — scores of up to 50 accounts, in input order. */
import { ApiError } from '../errors.ts'
import { defineOperation } from './define.ts'
import { findByPlatformId, findByUsername } from '../params/account.ts'
import { splitList } from '../params/lists.ts'
import { pagedList, pageParameters } from '../params/page.ts'
import { envelope, id, object, score, string } from '../openapi/schema.ts'
import type { Snapshot } from '../snapshot/load.ts'

/** Entries considered per request; the cap applies before validation. */
const BULK_ENTRY_LIMIT = 50
const BULK_REQUIRED_MESSAGE = 'ids or usernames is required'

export default defineOperation({
  name: 'bulk_scores_check',
  groups: ['Scores'],
  summary: 'Scores of up to 50 accounts by id or username. Unknown accounts are absent; rows keep the input order.',
  parameters: [
    {
      name: 'ids',
      description: `Comma-separated numeric account ids; takes precedence over \`usernames\` whenever non-empty. Only the first ${BULK_ENTRY_LIMIT} entries are considered (non-numeric entries use up slots and are skipped).`,
      schema: string({ examples: ['1001,1002'] }),
    },
    {
      name: 'usernames',
      description: `Comma-separated handles, used only when \`ids\` is empty; whitespace per entry stripped; first ${BULK_ENTRY_LIMIT} entries considered.`,
      schema: string({ examples: ['alice,bob'] }),
    },
    ...pageParameters('bulk_scores_check'),
  ],
  response: envelope(
    'data',
    object({ platform_id: id(), username: string(), platform_url: string({ format: 'uri' }), platform_score: score() }),
  ),
  cache: 'default',
  handle({ query, snapshot, profileBaseUrl }) {
    const ids = query.get('ids')?.trim() ?? ''
    const usernames = query.get('usernames')?.trim() ?? ''
    if (ids === '' && usernames === '') throw new ApiError('invalid_params', BULK_REQUIRED_MESSAGE)
    const find = ids !== '' ? findByPlatformId : findByUsername
    const matched = new Set<number>()
    for (const entry of splitList(ids !== '' ? ids : usernames, BULK_ENTRY_LIMIT)) {
      const idx = find(snapshot, entry)
      if (idx !== undefined) matched.add(idx)
    }
    return pagedList(query, 'bulk_scores_check', 'data', [...matched], (idx) => row(snapshot, profileBaseUrl, idx))
  },
})

function row({ accounts: a }: Snapshot, profileBaseUrl: string, idx: number) {
  return {
    platform_id: a.platformId.at(idx),
    username: a.username.at(idx),
    platform_url: `${profileBaseUrl}/${a.username.at(idx)}`,
    platform_score: a.platformScore[idx],
  }
}
