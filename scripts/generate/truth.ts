/**
 * `_truth.json`: the structure the generator planted, for test fixtures (not part of the raw contract). Ids are
 * decimal strings. Besides the documented labels it lists `friend_overlap_zero` (full accounts with a friend
 * record followed only by bots: graph score > 0, main score ~0), `bucket_followers` (monitored Venture Capitals,
 * Influencers and Angels with follows and unfollows 0, 3, 12, 25 and 45 days before the end date) and
 * `trend_targets` (the accounts they follow), `quality` (every monitored account's latent audience quality, the
 * truth the score is measured against: id → quality in [0, 1)) and `attacks` (each planted attack: kind, target,
 * accomplices, start date; see sql/follow_graph.sql).
 */
import fs from 'node:fs'
import type { DuckDBConnection } from '@duckdb/node-api'
import { queryRows } from '../../pipeline/duckdb.ts'

async function ids(conn: DuckDBConnection, where: string): Promise<string[]> {
  const rows = await queryRows(conn, `select account_id::VARCHAR as id from entity where ${where} order by role_index, r`)
  return rows.map((row) => row.id as string)
}

export async function writeTruth(
  conn: DuckDBConnection,
  file: string,
  meta: { seed: number; scale: string; endDate: string },
): Promise<void> {
  const truth = {
    seed: meta.seed,
    scale: meta.scale,
    end_date: meta.endDate,
    top_accounts: await ids(conn, `role = 'top'`),
    bot_farm_targets: await ids(conn, `role = 'bot_target'`),
    bot_farm_members: await ids(conn, `role = 'bot'`),
    ring_members: await ids(conn, `role = 'ring'`),
    gems: await ids(conn, `role = 'gem'`),
    lonely_small: await ids(conn, `role = 'lonely'`),
    friend_overlap_zero: await ids(conn, `role = 'overlap_zero'`),
    bucket_followers: Object.fromEntries(
      await Promise.all(
        [1, 7, 8].map(async (category) => [
          String(category),
          await ids(conn, `r in (select r from bucket_follower where category_id = ${category})`),
        ]),
      ),
    ),
    trend_targets: await ids(conn, `r in (select r from trend_target)`),
    renamed: await queryRows(
      conn,
      `select p.account_id::VARCHAR as id, p.username as old_username, a.username as new_username
       from previous_usernames p join accounts a using (account_id) order by p.account_id, p.changed_at`,
    ),
    suspended: await ids(conn, `kind = 'account' and is_suspended`),
    quality: Object.fromEntries(
      (await queryRows(conn, `select account_id::VARCHAR as id, round(quality, 4) as q from entity
                              where kind = 'account' and is_monitored order by account_id`)).map((row) => [row.id, row.q]),
    ),
    attacks: await queryRows(
      conn,
      `select a.kind || '-' || (a.attack_no + 1) as name, a.kind, id_of(a.target_r)::VARCHAR as target,
         list(id_of(m.r)::VARCHAR order by m.r) as accomplices, scan_day(a.born) as since
       from attack a join attack_member m using (attack_no)
       group by a.attack_no, a.kind, a.target_r, a.born order by a.attack_no`,
    ),
    inactive: await ids(conn, `kind = 'account' and not is_active`),
  }
  fs.writeFileSync(file, JSON.stringify(truth, null, 1) + '\n')
}
