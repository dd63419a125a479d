-- Deterministic randomness and the id/handle functions every generator model shares.
--
-- Every random value is a hash of (seed, a, b, salt) mapped to [0, 1): no RNG state, so a value depends only on what it
-- describes and the models can run in any order and in parallel. DuckDB's hash() is stable from run to run and
-- process to process within one DuckDB version (pinned in package.json); upgrading DuckDB may change every value
-- (never the shape or the invariants), so determinism is "same seed + same end date + same DuckDB version".

-- DuckDB combines the hashes of several arguments with a multiply-xor step, so hash(x, salt1) and hash(x, salt2)
-- are related by an xor; hashing the combined value again (a full 64-bit mixer) makes the streams independent.
create or replace macro mixed_hash(a, b, salt) as
  hash(hash(getvariable('seed'), a::BIGINT, b::BIGINT, salt::INTEGER));

create or replace macro rnd(a, b, salt) as (mixed_hash(a, b, salt) >> 11)::DOUBLE / 9007199254740992.0;

create or replace macro rnd_int(a, b, salt, n) as (mixed_hash(a, b, salt) % greatest(n, 1)::UBIGINT)::BIGINT;

-- standard normal (Box-Muller)
create or replace macro normal(a, b, salt) as
  sqrt(-2 * ln(1 - rnd(a, b, salt))) * cos(2 * pi() * rnd(a, b, salt + 1000));

-- inverse CDF of a continuous Zipf law x^-s on [1, n+1): rank 0 is the most likely; s != 1
create or replace macro zipf(u, n, s) as
  least(n - 1, greatest(0,
    floor(pow(1 + u * (pow(n + 1, 1 - s::DOUBLE) - 1), 1 / (1 - s::DOUBLE)))::BIGINT - 1));

-- Entities are numbered by popularity rank r (0 = most followed). The id comes from a creation index, a bijective
-- affine permutation of r, so ids are unrelated to popularity. The oldest creation indexes get small sequential
-- ids (< 2^31), all others snowflake-style ids between 1.5e18 and 1.9e18 (beyond 2^53). Each creation index owns a
-- disjoint id slot, so ids are unique by construction.
create or replace macro creation_index(r) as
  ((r::BIGINT * getvariable('perm_a') + getvariable('perm_b')) % getvariable('n_ids'))::BIGINT;

create or replace macro id_of_creation(c) as
  case when c < getvariable('n_old_ids')
    then (12 + c * 8191 + rnd_int(c, 0, 1, 8191))::UBIGINT
    else 1500000000000000000::UBIGINT + (c - getvariable('n_old_ids'))::UBIGINT * getvariable('id_slot')::UBIGINT
         + mixed_hash(c, 0, 2) % getvariable('id_slot')::UBIGINT
  end;

create or replace macro id_of(r) as id_of_creation(creation_index(r));

create or replace macro capitalized(w) as upper(w[1]) || w[2:];

create or replace macro handle_word_a(i) as
  ['crypto', 'defi', 'moon', 'alpha', 'degen', 'sats', 'chain', 'block', 'yield', 'whale', 'ape', 'based',
   'onchain', 'meta', 'nft', 'layer', 'stack', 'hodl', 'gwei', 'zk', 'rollup', 'node', 'hash', 'token', 'vault',
   'pixel', 'lunar', 'solar', 'bit', 'eth', 'sol', 'cosmo', 'quant', 'satoshi', 'miner', 'dex'][1 + i % 36];

create or replace macro handle_word_b(i) as
  ['labs', 'dao', 'capital', 'maxi', 'trader', 'dev', 'news', 'fi', 'hq', 'xyz', 'guy', 'ventures', 'research',
   'fund', 'club', 'bull', 'bear', 'builder', 'wizard', 'anon', 'intern', 'chad', 'sensei', 'daily', 'alerts',
   'insider', 'pro', 'king', 'queen', 'cat'][1 + i % 30];

-- A letters-only stem in one of four casings. Handles are stem + a decimal number, so no two entities share one,
-- even ignoring case; curated top handles are letters only and old handles end with a letter (see accounts.sql).
create or replace macro handle_stem(r, salt) as (
  case rnd_int(r, 0, salt, 4)
    when 0 then capitalized(handle_word_a(rnd_int(r, 1, salt, 36))) || capitalized(handle_word_b(rnd_int(r, 2, salt, 30)))
    when 1 then handle_word_a(rnd_int(r, 1, salt, 36)) || handle_word_b(rnd_int(r, 2, salt, 30))
    when 2 then handle_word_a(rnd_int(r, 1, salt, 36)) || '_' || handle_word_b(rnd_int(r, 2, salt, 30))
    else capitalized(handle_word_a(rnd_int(r, 1, salt, 36)))
  end);

create or replace macro curated_handle(r) as
  ['CryptoCapital', 'BlockVentures', 'CoinExchange', 'ChainFund', 'DeFiPulse', 'SatoshiDaily', 'EtherFoundation',
   'ParadigmLike', 'OnchainAlpha', 'ZkResearch', 'MoonAngels', 'LayerZeroFan', 'TokenTerminal', 'WhaleAlerts',
   'BinanceLike', 'CoinbaseLike', 'KrakenLike', 'AuditLabs', 'CertiKLike', 'TheBlockNews', 'CoinDeskLike',
   'VitalikLike', 'CZLike', 'SolanaLabs', 'CosmosHub', 'RollupDaily', 'GweiWatch', 'YieldHunter', 'NftSensei',
   'QuantFund'][r + 1];

create or replace macro handle_of(r) as
  case when r < getvariable('n_curated') then curated_handle(r) else handle_stem(r, 21) || creation_index(r)::VARCHAR end;

create or replace macro base62(a, b, salt, n) as
  list_aggregate(list_transform(range(n), base62_pos ->
    '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'[1 + rnd_int(a, b * 64 + base62_pos, salt, 62)]),
    'string_agg', '');

-- calendar day of follow-scan day number d (0 = the baseline scan, scan_window = the end date)
create or replace macro scan_day(d) as (getvariable('end_date') - getvariable('scan_window') + d::INTEGER)::DATE;

-- days before the end date on which an ordinary monitored account joined the monitored set (15% of them, uniformly
-- over the generated days): the crawler counts its followers and scans its follows from that day on; NULL for the
-- accounts monitored from the first day
create or replace macro joined_days_ago(r, role) as
  case when role is null and rnd(r, 0, 66) < 0.15 then rnd_int(r, 0, 67, getvariable('count_days')) end;

-- follower count k days before the end date: exponential trend, small daily noise, bot farms' purchased jump
create or replace macro followers_at(followers_end, growth, jump_k, r, k) as
  greatest(0, round(followers_end * exp(-growth * k) * (1 + 0.002 * normal(r, k, 30))
                    / case when k > coalesce(jump_k, 100000) then 3 else 1 end))::BIGINT;
