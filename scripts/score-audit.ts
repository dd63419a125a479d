/**
 * Score audit (a benchmark, not a test): `npm run score:audit [-- --scale demo] [--seed 42] [--raw DIR]
 * [--date YYYY-MM-DD] [--inert 500000]`.
 *
 * Scores a generated raw folder (generated into a temporary folder when `--raw` is not given) and attacked or
 * cleaned copies of it, then prints what docs/score.md promises, each against its target:
 * - per planted attack kind (`_truth.json` attacks): the targets' score and rank with the attack against a copy
 *   without any attack, and for comparison a real endorsement (a seed of median standing follows the bought-follow
 *   targets);
 * - an inert flood: `--inert` accounts nobody follows added to accounts.parquet, and how far any score moves;
 * - Spearman of the score with the planted quality and with the follower count, among monitored accounts, and for
 *   reference the Spearman with quality of plain counts of the graph and of the audience without its size term;
 * - day-to-day movement: the score on the date and the day before, for accounts whose smart followers are the same
 *   on both days.
 * Each copy is built from scratch as the nightly command builds it.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import type { DuckDBConnection } from '@duckdb/node-api'
import { buildSnapshot } from '../pipeline/build.ts'
import { addDays } from '../pipeline/plan.ts'
import { openPipelineDb, queryRows, sqlString } from '../pipeline/duckdb.ts'
import { isCalendarDay } from '../pipeline/raw-days.ts'
import { generateRaw } from './generate/index.ts'
import { withInertAccountsSql, withoutAttacksSql, type PlantedAttack } from './generate/attacks.ts'
import { rewriteRawFile } from './generate/rewrite.ts'
import { SCALES, type ScaleName } from './generate/scales.ts'

const USAGE = 'usage: npm run score:audit -- [--scale tiny|demo|large] [--seed N] [--raw DIR] [--date YYYY-MM-DD] [--inert N]\n'

/** The flags, checked before any work: a mistake exits 2 with its message and the usage; `--help` prints the usage. */
function flags() {
  try {
    const { values } = parseArgs({
      options: {
        scale: { type: 'string', default: 'demo' },
        seed: { type: 'string', default: '42' },
        raw: { type: 'string' },
        date: { type: 'string' },
        inert: { type: 'string', default: '500000' },
        help: { type: 'boolean', default: false },
      },
    })
    if (values.help) {
      process.stdout.write(USAGE)
      process.exit(0)
    }
    if (!Object.hasOwn(SCALES, values.scale)) throw new Error(`--scale must be one of ${Object.keys(SCALES).join(', ')}`)
    if (!/^\d+$/.test(values.seed)) throw new Error(`--seed must be a whole number, got ${values.seed}`)
    if (!/^[1-9]\d*$/.test(values.inert)) throw new Error(`--inert must be a positive whole number, got ${values.inert}`)
    if (values.date !== undefined && !isCalendarDay(values.date)) throw new Error(`--date must be a real date YYYY-MM-DD, got ${values.date}`)
    if (values.raw !== undefined && !fs.existsSync(path.join(values.raw, '_truth.json'))) {
      throw new Error(`--raw must be a generated raw folder (with _truth.json): ${values.raw}`)
    }
    return values
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`)
    process.exit(2)
  }
}
const values = flags()

/** The score's targets against the attacks (docs/score.md). */
const TARGET = {
  boughtSeedPoints: 20,
  boughtSeedTopShare: 0.1,
  reciprocalPoints: 5,
  inertPoints: 0.5,
  spearmanQuality: 0.8,
  dayToDayPoints: 0.5,
}

interface Truth {
  end_date: string
  quality: Record<string, number>
  attacks: PlantedAttack[]
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'score-audit-'))
process.once('exit', () => fs.rmSync(work, { recursive: true, force: true }))

async function rawFolder(): Promise<string> {
  if (values.raw) return path.resolve(values.raw)
  const outDir = path.join(work, 'raw')
  const endDate = values.date ?? '2026-11-22'
  await generateRaw({ scale: values.scale as ScaleName, seed: Number(values.seed), outDir, endDate })
  return outDir
}

/** A copy of `raw` with one file rewritten by a query over it (`t` = the file; every day folder's). */
async function rewrittenCopy(raw: string, name: string, file: string, select: string): Promise<string> {
  const dir = path.join(work, name)
  fs.cpSync(raw, dir, { recursive: true })
  await rewriteRawFile(dir, file, select)
  return dir
}

/**
 * Build `raw` as of `date` from scratch, as the nightly command does; keep its scores, smart edges and seeds as
 * `<name>_*.parquet`.
 */
async function score(raw: string, date: string, name: string): Promise<number> {
  const started = Date.now()
  const snapshots = path.join(work, `${name}-snapshots`)
  const { dir } = await buildSnapshot({ rawDir: raw, snapshotsDir: snapshots, date, rebuild: true })
  const db = await openPipelineDb()
  try {
    const file = (mart: string) => sqlString(path.join(dir, `${mart}.parquet`))
    const out = (kind: string) => sqlString(path.join(work, `${name}_${kind}.parquet`))
    await db.conn.run(`copy (select a.platform_id, a.platform_score, a.rank, a.is_monitored, a.is_tracked, a.followers_count,
                               a.smart_followers_count, e.trusted_followers, e.audience
                             from read_parquet(${file('accounts')}) a
                             join read_parquet(${file('score_explanations')}) e using (account_idx))
                       to ${out('scores')} (format parquet)`)
    await db.conn.run(`copy (select follower_id as source_id, target_id from read_parquet(${file('smart_followers')}))
                       to ${out('edges')} (format parquet)`)
    // each listed contributor's weight (its share of the audience times the audience, in trusted followers)
    await db.conn.run(`copy (select c.platform_id as target_id, c.follower_id as source_id, c.share * e.audience as weight
                             from read_parquet(${file('score_contributors')}) c
                             join read_parquet(${file('score_explanations')}) e using (account_idx))
                       to ${out('contributors')} (format parquet)`)
    await db.conn.run(`copy (select platform_id, seed_endowment as seed_trust from read_parquet(${file('score_explanations')})
                             where is_seed) to ${out('seeds')} (format parquet)`)
  } finally {
    db.close()
    fs.rmSync(snapshots, { recursive: true, force: true })
  }
  return Date.now() - started
}

async function analysis(conn: DuckDBConnection, truth: Truth): Promise<void> {
  for (const name of ['base', 'clean', 'flood', 'before', 'endorsed', 'unjoined']) {
    await conn.run(`create view ${name} as select * from read_parquet(${sqlString(path.join(work, `${name}_scores.parquet`))})`)
  }
  for (const name of ['base', 'before']) {
    for (const kind of ['edges', 'contributors']) {
      await conn.run(`create view ${name}_${kind} as
        select * from read_parquet(${sqlString(path.join(work, `${name}_${kind}.parquet`))})`)
    }
  }
  const qualityFile = path.join(work, 'quality.ndjson')
  fs.writeFileSync(qualityFile, Object.entries(truth.quality).map(([id, q]) => JSON.stringify({ id, q })).join('\n') + '\n')
  await conn.run(`create table quality as select id::ubigint as platform_id, q::double as quality
                  from read_json(${sqlString(qualityFile)}, columns = {id: 'VARCHAR', q: 'DOUBLE'})`)
  const attacksFile = path.join(work, 'attacks.ndjson')
  fs.writeFileSync(attacksFile, truth.attacks.map((a) => JSON.stringify({ kind: a.kind, target: a.target })).join('\n') + '\n')
  await conn.run(`create table attack as select kind, target::ubigint as platform_id
                  from read_json(${sqlString(attacksFile)}, columns = {kind: 'VARCHAR', target: 'VARCHAR'})`)
}

/** The seed whose endowment is the median among seeds with any: a real, ordinary endorser. */
async function medianSeed(): Promise<string> {
  const db = await openPipelineDb()
  try {
    const [row] = await queryRows(db.conn, `
      select platform_id::varchar as id from read_parquet(${sqlString(path.join(work, 'base_seeds.parquet'))})
      where seed_trust > 0 order by seed_trust, platform_id
      limit 1 offset (select count(*) // 2 from read_parquet(${sqlString(path.join(work, 'base_seeds.parquet'))}) where seed_trust > 0)`)
    return row.id as string
  } finally {
    db.close()
  }
}

/**
 * follow_scans.parquet (`t`, one day folder's) without the scans of the accounts whose first scan is on `date` (they
 * joined the monitored set that day): `date` as if they had not joined.
 */
async function withoutJoinersSql(raw: string, date: string): Promise<string> {
  const db = await openPipelineDb()
  try {
    const joined = await queryRows(db.conn, `
      select account_id::varchar as id from read_parquet(${sqlString(path.join(raw, '**', 'follow_scans.parquet'))})
      group by account_id having min(scan_date) = DATE '${date}'`)
    return `select * from t where not list_contains([${joined.map((r) => `${r.id}::ubigint`).join(', ')}]::ubigint[], account_id)`
  } finally {
    db.close()
  }
}

/** follow_scans.parquet (`t`, one day folder's) with `seed`'s scan also following the bought-follow targets. */
function withFollowsSql(seed: string, date: string, truth: Truth): string {
  const targets = truth.attacks.filter((a) => a.kind === 'bought_seed_follow').map((a) => `${a.target}::ubigint`)
  return `select * replace (
            if(account_id = ${seed}::ubigint and scan_date = (select max(scan_date) from t
                 where account_id = ${seed}::ubigint and scan_date <= DATE '${date}'),
               list_distinct(list_concat(following_ids, [${targets.join(', ')}])), following_ids) as following_ids)
          from t`
}

function fmt(value: unknown, digits = 2): string {
  return typeof value === 'number' ? value.toFixed(digits) : String(value)
}

function verdict(ok: boolean): string {
  return ok ? 'met' : 'NOT MET'
}

/** Per attack kind: the targets' move with the attack against the copy without any; then a real endorsement. */
async function reportAttacks(conn: DuckDBConnection, tracked: number): Promise<void> {
  const top = `${TARGET.boughtSeedTopShare} * ${tracked}`
  const attacks = await queryRows(conn, `
    select k.kind, count(*) as targets,
      median(b.platform_score - c.platform_score) as median_points, max(b.platform_score - c.platform_score) as max_points,
      median(c.rank) as rank_without, median(b.rank) as rank_with, min(b.rank) as best_rank,
      count(*) filter (where c.rank > ${top} and b.rank <= ${top}) as into_top
    from attack k join base b using (platform_id) join clean c using (platform_id)
    group by k.kind order by k.kind`)
  console.log('\nattacks: target score and rank with the attack vs. without any attack (medians; worst case)')
  for (const a of attacks) {
    const topShare = `${TARGET.boughtSeedTopShare * 100}%`
    const target = a.kind === 'sybil_clique' ? 'no target'
      : a.kind === 'bought_seed_follow'
        ? `median ≤ +${TARGET.boughtSeedPoints}, never into the top ${topShare}: `
          + verdict(Number(a.median_points) <= TARGET.boughtSeedPoints && Number(a.into_top) === 0)
        : `≤ +${TARGET.reciprocalPoints}: ${verdict(Number(a.max_points) <= TARGET.reciprocalPoints)}`
    console.log(`  ${String(a.kind).padEnd(20)} ${a.targets} targets  Δscore median ${fmt(a.median_points)},`
      + ` max ${fmt(a.max_points)}  rank ${a.rank_without} → ${a.rank_with} (best ${a.best_rank};`
      + ` ${a.into_top} moved into the top ${topShare})  [${target}]`)
  }
  const [real] = await queryRows(conn, `
    select median(e.platform_score - c.platform_score) as median_points, max(e.platform_score - c.platform_score) as max_points,
      median(c.rank) as rank_without, median(e.rank) as rank_with
    from attack k join endorsed e using (platform_id) join clean c using (platform_id)
    where k.kind = 'bought_seed_follow'`)
  console.log('  for comparison, a real endorsement: a seed of median standing also follows the same targets:'
    + ` Δscore median ${fmt(real.median_points)}, max ${fmt(real.max_points)}, rank ${real.rank_without} → ${real.rank_with}`)
}

async function reportFlood(conn: DuckDBConnection, inert: number): Promise<void> {
  const [flooded] = await queryRows(conn, `
    select count(*) filter (where abs(f.platform_score - b.platform_score) > 0) as moved,
      coalesce(max(abs(f.platform_score - b.platform_score)), 0) as max_points
    from base b join flood f using (platform_id)`)
  console.log(`\ninert flood: ${inert} accounts added; ${flooded.moved} scores moved, by at most ${fmt(flooded.max_points)}`
    + `  [≤ ${TARGET.inertPoints}: ${verdict(Number(flooded.max_points) <= TARGET.inertPoints)}]`)
}

/**
 * Reference measures of the same accounts, for what the score's parts add to its Spearman with quality: plain counts
 * of the follow graph, and the audience before the score divides it by its size term.
 */
const REFERENCES: Record<string, string> = {
  'smart followers (count)': 'b.smart_followers_count',
  'trusted followers (count)': 'b.trusted_followers',
  'audience (no size term)': 'b.audience',
}

/** Spearman's correlation (average ranks for ties) among monitored accounts; then the reference measures'. */
async function reportSpearman(conn: DuckDBConnection): Promise<void> {
  const averageRank = (x: string) => `rank() over (order by ${x}) + (count(*) over (partition by ${x}) - 1) / 2`
  const refs = Object.values(REFERENCES)
  const [rho] = await queryRows(conn, `
    with m as (
      select b.platform_score as s, b.followers_count as f, q.quality as q, ${refs.map((x, i) => `${x} as x${i}`).join(', ')}
      from base b join quality q using (platform_id) where b.is_monitored
    ),
    r as (select ${averageRank('s')} as rs, ${averageRank('q')} as rq, ${averageRank('f')} as rf,
            ${refs.map((_, i) => `${averageRank(`x${i}`)} as r${i}`).join(', ')} from m)
    select count(*) as n, corr(rs, rq) as quality, corr(rs, rf) as followers,
      ${refs.map((_, i) => `corr(r${i}, rq) as q${i}`).join(', ')} from r`)
  const met = Number(rho.quality) >= TARGET.spearmanQuality && Number(rho.quality) > Number(rho.followers)
  console.log(`\nSpearman among ${rho.n} monitored accounts: with planted quality ${fmt(rho.quality, 3)},`
    + ` with follower count ${fmt(rho.followers, 3)}  [quality ≥ ${TARGET.spearmanQuality} and above followers: ${verdict(met)}]`)
  console.log('  for reference, Spearman with planted quality of: '
    + Object.keys(REFERENCES).map((name, i) => `${name} ${fmt(rho[`q${i}`], 3)}`).join(', '))
}

/**
 * Accounts with the same smart followers on both days: how far their score moved, and how many moved at least the
 * target through the accounts that joined the monitored set that day (against the day scored without them) or through
 * the day's other changes, and how many of those have a follower trust started or stopped reaching; for those that
 * moved at least the target, how big they are and through which followers: for those with at most 10 trusted
 * followers (all listed in score_contributors), the follower whose weight moved most.
 */
async function reportDayToDay(conn: DuckDBConnection, date: string): Promise<void> {
  await conn.run(`
    create table moves as
    with today as (select target_id, list(source_id order by source_id) as f from base_edges group by target_id),
    yesterday as (select target_id, list(source_id order by source_id) as f from before_edges group by target_id),
    unchanged as (select target_id as platform_id from today join yesterday using (target_id) where today.f = yesterday.f)
    select platform_id, abs(b.platform_score - y.platform_score) as d, b.audience,
      greatest(b.trusted_followers, y.trusted_followers) <= 10 as listed,
      abs(b.platform_score - n.platform_score) as d_joined, abs(n.platform_score - y.platform_score) as d_other,
      -- a follower trust started or stopped reaching (its score crossed 0): what the explanation lists as trusted or
      -- untrusted (seeds aside)
      exists (select 1 from base_edges e join base fb on fb.platform_id = e.source_id join before fy using (platform_id)
              where e.target_id = u.platform_id and (fb.platform_score > 0) <> (fy.platform_score > 0)) as turned
    from unchanged u join base b using (platform_id) join before y using (platform_id) join unjoined n using (platform_id)`)
  const [day] = await queryRows(conn, `
    select count(*) as n, median(d) as p50, quantile_cont(d, 0.99) as p99, max(d) as max_points,
      count(*) filter (where d >= ${TARGET.dayToDayPoints}) as over,
      count(*) filter (where d_joined >= ${TARGET.dayToDayPoints}) as over_joined,
      count(*) filter (where d_other >= ${TARGET.dayToDayPoints}) as over_other,
      count(*) filter (where d >= ${TARGET.dayToDayPoints} and turned) as over_turned,
      (select count(*) from (select source_id from base_edges except select source_id from before_edges)) as entered,
      median(audience) filter (where d >= ${TARGET.dayToDayPoints}) as over_audience
    from moves`)
  console.log(`\nday to day (${addDays(date, -1)} → ${date}): ${day.n} accounts with the same smart followers both days;`
    + ` |Δscore| median ${fmt(day.p50, 3)}, p99 ${fmt(day.p99, 3)}, max ${fmt(day.max_points)};`
    + ` ${day.over} moved ≥ ${TARGET.dayToDayPoints}  [< ${TARGET.dayToDayPoints}: ${verdict(Number(day.over) === 0)}]`)
  console.log(`  of them, ${day.over_joined} move ≥ ${TARGET.dayToDayPoints} by the accounts that joined the monitored set that`
    + ` day alone (the day scored again without their first scans), ${day.over_other} by the day's other changes alone;`
    + ` ${day.entered} accounts follow as smart accounts that day and did not the day before; ${day.over_turned} have a`
    + ' follower whose score crossed 0 (trust started or stopped reaching it: their explanations list it)')
  if (Number(day.over) === 0) return
  const [why] = await queryRows(conn, `
    with weights as (
      select target_id, source_id, coalesce(sum(weight) filter (where today), 0) as weight,
        coalesce(sum(weight) filter (where not today), 0) as weight_before
      from (select true as today, * from base_contributors union all select false, * from before_contributors)
      where target_id in (select platform_id from moves where d >= ${TARGET.dayToDayPoints} and listed)
      group by target_id, source_id
    ),
    drivers as (
      select source_id as follower, weight, abs(weight - weight_before) as moved from weights
      qualify row_number() over (partition by target_id order by abs(weight - weight_before) desc, source_id) = 1
    )
    select count(*) as accounts, count(distinct follower) as followers, median(weight) as weight, median(moved) as moved
    from drivers`)
  console.log(`  those moved by more: median audience ${fmt(day.over_audience)} trusted followers; for the ${why.accounts}`
    + ` with at most 10, the follower whose weight moved most is one of ${why.followers} accounts`
    + ` (median weight ${fmt(why.weight)}, moved by ${fmt(why.moved, 3)})`)
}

async function main(): Promise<void> {
  const raw = await rawFolder()
  const truth = JSON.parse(fs.readFileSync(path.join(raw, '_truth.json'), 'utf8')) as Truth
  const date = values.date ?? truth.end_date
  const inert = Number(values.inert)
  const clean = await rewrittenCopy(raw, 'clean', 'follow_scans.parquet', withoutAttacksSql(truth.attacks))
  const flood = await rewrittenCopy(raw, 'flood', 'accounts.parquet', withInertAccountsSql(inert))
  const ms = await score(raw, date, 'base')
  const endorser = await medianSeed()
  const endorsed = await rewrittenCopy(clean, 'endorsed', 'follow_scans.parquet', withFollowsSql(endorser, date, truth))
  await score(endorsed, date, 'endorsed')
  await score(clean, date, 'clean')
  await score(flood, date, 'flood')
  await score(raw, addDays(date, -1), 'before')
  await score(await rewrittenCopy(raw, 'unjoined', 'follow_scans.parquet', await withoutJoinersSql(raw, date)), date, 'unjoined')

  const db = await openPipelineDb()
  try {
    await analysis(db.conn, truth)
    const tracked = Number((await queryRows(db.conn, 'select count(*) as n from base where is_tracked'))[0].n)
    console.log(`score audit: raw ${raw}, date ${date}, ${tracked} tracked accounts, one scoring ${(ms / 1000).toFixed(1)} s`)
    await reportAttacks(db.conn, tracked)
    await reportFlood(db.conn, inert)
    await reportSpearman(db.conn)
    await reportDayToDay(db.conn, date)
  } finally {
    db.close()
  }
}

await main()
