-- accounts, previous_usernames and friends: the profile side of every entity.

create or replace macro first_name(i) as
  ['Alice', 'Bob', 'Carla', 'Dmitri', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jamal', 'Kenji', 'Lena', 'Mateo',
   'Nadia', 'Omar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tomás', 'Uma', 'Viktor', 'Wei', 'Xenia', 'Yusuf', 'Zoë',
   'Łukasz', 'Søren', 'Ana', 'Ben'][1 + i % 30];
create or replace macro last_name(i) as
  ['Nakamoto', 'Buterin', 'Chen', 'Kowalski', 'Okafor', 'Silva', 'Müller', 'Rossi', 'Dubois', 'Tanaka', 'Kim',
   'Novak', 'Haddad', 'García', 'Ivanova', 'Singh', 'Park', 'Larsen', 'Costa', 'Moreau'][1 + i % 20];

create or replace macro display_name(r) as
  case
    when r < getvariable('n_curated') then regexp_replace(curated_handle(r), '([a-z])([A-Z])', '\1 \2', 'g')
    when rnd(r, 0, 40) < 0.45 then first_name(rnd_int(r, 1, 40, 30)) || ' ' || last_name(rnd_int(r, 2, 40, 20))
    when rnd(r, 0, 40) < 0.88 then capitalized(handle_word_a(rnd_int(r, 1, 21, 36))) || ' '
                                  || capitalized(handle_word_b(rnd_int(r, 2, 21, 30)))
    when rnd(r, 0, 40) < 0.95
      then first_name(rnd_int(r, 1, 40, 30)) || ' ' || ['🦇🔊', '⚡', '.eth', '(🥩,🥩)', '🌐', '| gm'][1 + rnd_int(r, 3, 40, 6)]
    when rnd(r, 0, 40) < 0.975 then null
    when rnd(r, 0, 40) < 0.985 then ''
    else lower(first_name(rnd_int(r, 1, 40, 30)))
  end;

create or replace macro description_of(r) as
  case when rnd(r, 0, 41) < 0.2 then null else
    ['Building ', 'Investing in ', 'Writing about ', 'Researching ', 'Trading ', 'Shipping '][1 + rnd_int(r, 1, 41, 6)]
    || ['DeFi', 'zk rollups', 'onchain games', 'stablecoins', 'restaking', 'NFT markets', 'MEV', 'wallets',
        'L2 scaling', 'oracles'][1 + rnd_int(r, 2, 41, 10)]
    || ['.', ' on Ethereum.', ' on Solana.', ' across chains.', ' since 2017.', '. Not financial advice.',
        '. Views my own.', ' 🚀', ' | prev @' || handle_stem(r + 1, 21)][1 + rnd_int(r, 3, 41, 9)]
  end;

create or replace macro profile_image_of(r) as
  case when rnd(r, 0, 42) < 0.08 then null else
    'https://images.platform.example/profile_images/'
    || (1000000000000000000::UBIGINT + mixed_hash(r, 0, 42) % 800000000000000000::UBIGINT)::VARCHAR
    || '/' || base62(r, 0, 42, 8) || '_normal.jpg'
  end;

create table accounts as
select
  account_id,
  handle_of(r) as username,
  -- a few slugs differ from the handle; they contain '-', which no handle does, so they never collide
  case when rnd(r, 0, 43) < 0.05 then lower(handle_stem(r, 25)) || '-' || creation_index(r)::VARCHAR
       else lower(handle_of(r)) end as slug,
  display_name(r) as name,
  description_of(r) as description,
  case when role = 'bot' then null else profile_image_of(r) end as profile_image,
  rnd(r, 0, 44) < case when role = 'bot' then 0.3 when r < getvariable('n_generic') / 100 then 0.6 else 0.1 end
    as blue_verified,
  is_active,
  is_suspended,
  is_monitored,
  -- the profile value lags the daily scans by 0-4 days for monitored accounts
  case when is_monitored then followers_at(followers_end, growth, jump_k, r, rnd_int(r, 0, 45, 5))
       else followers_end end as followers_count,
  r
from entity
where kind = 'account';

-- renames: 3% once, 0.5% twice; an old handle is stem + creation index + a letter, so it never equals a
-- current handle (those end with a digit or are letters only) nor another account's old handle
create table previous_usernames as
select e.account_id,
  handle_stem(e.r, 33 + k) || creation_index(e.r)::VARCHAR || ['x', 'q'][k + 1] as username,
  (getvariable('end_date') - (1 + k * 365 + rnd_int(e.r, k, 34, 360))::INTEGER)::DATE as changed_at,
  e.r
from entity e, range(2) t(k)
where e.kind = 'account' and k < case when rnd(e.r, 0, 32) < 0.005 then 2 when rnd(e.r, 0, 32) < 0.03 then 1 else 0 end;

create table friends as
select
  account_id,
  handle_of(r) as username,
  display_name(r) as name,
  description_of(r) as description,
  profile_image_of(r) as profile_image,
  followers_end as followers_count,
  -- graph-side score: high for popular ranks; 5% of friend-only records have none, full accounts always some
  case when kind = 'friend' and rnd(r, 0, 46) < 0.05 then 0.0
       else greatest(1.0, round(1000 * exp(-6 * r / getvariable('n_known')::DOUBLE) * (0.3 + 0.7 * rnd(r, 0, 47)), 2))
  end::DOUBLE as graph_score,
  r
from entity
where kind = 'friend' or has_friend_record;
