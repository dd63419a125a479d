-- Categories (the spec's eight), tag categories, tags and their assignment to full accounts.
-- Most accounts carry 0-2 categories (monitored ones more), top accounts are Venture Capitals or Exchanges,
-- bots carry none, ring members at most one of Projects / Media / Influencers. Tags follow a skewed popularity
-- (low tag ids are common).

create table categories as
select * from (values
  (1, 'Venture Capitals'), (2, 'Founders'), (3, 'Projects'), (4, 'Exchanges'),
  (5, 'Auditors'), (6, 'Media'), (7, 'Influencers'), (8, 'Angels')
) v(category_id, name);

create table tag_categories as
select * from (values
  (1, 'Ecosystem'), (2, 'Sector'), (3, 'Role'), (4, 'Region'), (5, 'Technology'), (6, 'Community')
) v(tag_category_id, name);

create table tags as
select row_number() over (order by pos)::INTEGER as tag_id, name, tag_category_id
from (values
  (1, 'Ethereum', 1), (2, 'DeFi', 2), (3, 'Solana', 1), (4, 'Bitcoin', 1), (5, 'NFT', 2), (6, 'Layer 2', 5),
  (7, 'Trader', 3), (8, 'Developer', 3), (9, 'Gaming', 2), (10, 'Cosmos', 1), (11, 'Zero Knowledge', 5),
  (12, 'Memecoins', 6), (13, 'Airdrops', 6), (14, 'DAO', 6), (15, 'Researcher', 3), (16, 'Stablecoins', 2),
  (17, 'Polygon', 1), (18, 'Asia', 4), (19, 'Europe', 4), (20, 'North America', 4), (21, 'Infrastructure', 2),
  (22, 'Oracles', 5), (23, 'Restaking', 5), (24, 'Avalanche', 1), (25, 'Analyst', 3), (26, 'RWA', 2),
  (27, 'Privacy', 5), (28, 'Bridges', 5), (29, 'Latin America', 4), (30, 'Africa', 4), (31, 'Arbitrum', 1),
  (32, 'Base', 1), (33, 'Market Maker', 3), (34, 'Lending', 2), (35, 'Perpetuals', 2), (36, 'Wallets', 5),
  (37, 'Education', 6), (38, 'Podcast', 6), (39, 'Middle East', 4), (40, 'Node Operator', 3)
) v(pos, name, tag_category_id);

-- category picked from the weights VC .10, Founders .18, Projects .27, Exchanges .04, Auditors .03, Media .08,
-- Influencers .20, Angels .10
create or replace macro weighted_category(u) as
  case when u < 0.10 then 1 when u < 0.28 then 2 when u < 0.55 then 3 when u < 0.59 then 4
       when u < 0.62 then 5 when u < 0.70 then 6 when u < 0.90 then 7 else 8 end;

create table account_category as
with counts as (
  select r, account_id, role,
    case
      when role = 'top' then 1 + (role_index % 3 = 0)::INTEGER
      when role in ('bot', 'overlap_zero') then 0
      when role in ('gem', 'bot_target') then 1
      -- a ring is self-promotion, not curation: at most one category, never one a curator would trust
      when role = 'ring' then (rnd(r, 0, 20) < 0.7)::INTEGER
      -- monitored: none 30%, one 50%, two 17%, three 3%; others: none 70%, one 25%, two 4.5%, three 0.5%
      when is_monitored then case when rnd(r, 0, 20) < 0.30 then 0 when rnd(r, 0, 20) < 0.80 then 1
                                  when rnd(r, 0, 20) < 0.97 then 2 else 3 end
      else case when rnd(r, 0, 20) < 0.70 then 0 when rnd(r, 0, 20) < 0.95 then 1
                when rnd(r, 0, 20) < 0.995 then 2 else 3 end
    end::INTEGER as n
  from entity where kind = 'account'
)
select distinct r, account_id,
  case
    when role = 'top' then [1, 4][1 + (r + k) % 2]
    when role = 'gem' then [2, 3, 8][1 + rnd_int(r, 0, 21, 3)]
    when role = 'bot_target' then [3, 7][1 + rnd_int(r, 0, 21, 2)]
    when role = 'ring' then [3, 6, 7][1 + rnd_int(r, 0, 21, 3)]
    else weighted_category(rnd(r, k, 22))
  end::INTEGER as category_id
from counts, range(3) t(k)
where k < n;

create table account_tag as
select distinct e.r, e.account_id, floor(40 * pow(rnd(e.r, k, 24), 1.7))::INTEGER + 1 as tag_id
from entity e, range(4) t(k)
where e.kind = 'account' and e.role is distinct from 'bot'
  and rnd(e.r, k, 23) < case when e.is_monitored then 0.45 else 0.12 end;
