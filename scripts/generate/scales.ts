/**
 * Sizes of the three generator scales. `tiny` feeds the tests (about a second), `demo` is what `npm start` serves,
 * `large` is the benchmark size (1M accounts, 200k monitored, ~30M follow edges, 5M tweets).
 */
export type ScaleName = 'tiny' | 'demo' | 'large'

export interface Scale {
  /** full account records (accounts.parquet rows) */
  accounts: number
  /** accounts in the monitored set */
  monitored: number
  /** secondary records known only through the graph (friends.parquet rows without an account) */
  friendOnly: number
  /** ids in neither table, used by tweets (authors and a few mentions) */
  unknownIds: number
  /** mean number of random follows drawn per monitored account (before de-duplication) */
  outDegree: number
  tweets: number
  /** adversarial and test structure, see sql/entities.sql and sql/follow_graph.sql */
  topAccounts: number
  gems: number
  lonelySmall: number
  ringSize: number
  botFarms: number
  botsPerFarm: number
  friendOverlapZero: number
  /** monitored Venture Capitals / Influencers / Angels each with guaranteed recent follows and unfollows */
  bucketFollowers: number
  /** attacks planted around ordinary monitored targets, see sql/follow_graph.sql and attacks.ts */
  attacks: Attacks
}

export interface Attacks {
  /** a seed-category account nobody follows that follows only the target */
  boughtSeedFollows: number
  /** an account that follows only the target and is followed back */
  reciprocalPairs: number
  /** farms of `farmSize` accounts that follow only the target, all followed back */
  followBackFarms: number
  farmSize: number
  /** cliques of `cliqueSize` monitored accounts that follow each other and the target */
  sybilCliques: number
  cliqueSize: number
}

export const SCALES: Record<ScaleName, Scale> = {
  tiny: {
    accounts: 2_000, monitored: 400, friendOnly: 200, unknownIds: 100, outDegree: 30, tweets: 3_000,
    topAccounts: 8, gems: 6, lonelySmall: 10, ringSize: 10, botFarms: 2, botsPerFarm: 20, friendOverlapZero: 6,
    bucketFollowers: 3,
    attacks: { boughtSeedFollows: 4, reciprocalPairs: 4, followBackFarms: 2, farmSize: 5, sybilCliques: 2, cliqueSize: 5 },
  },
  demo: {
    accounts: 50_000, monitored: 10_000, friendOnly: 5_000, unknownIds: 2_000, outDegree: 60, tweets: 150_000,
    topAccounts: 20, gems: 25, lonelySmall: 30, ringSize: 24, botFarms: 8, botsPerFarm: 40, friendOverlapZero: 20,
    bucketFollowers: 5,
    attacks: {
      boughtSeedFollows: 12, reciprocalPairs: 12, followBackFarms: 6, farmSize: 10, sybilCliques: 6, cliqueSize: 8,
    },
  },
  large: {
    accounts: 1_000_000, monitored: 200_000, friendOnly: 100_000, unknownIds: 30_000, outDegree: 161,
    tweets: 5_000_000, topAccounts: 50, gems: 100, lonelySmall: 100, ringSize: 60, botFarms: 40, botsPerFarm: 100,
    friendOverlapZero: 100, bucketFollowers: 10,
    attacks: {
      boughtSeedFollows: 30, reciprocalPairs: 30, followBackFarms: 10, farmSize: 20, sybilCliques: 10, cliqueSize: 10,
    },
  },
}

/** Days of follow scans (baseline on end date − SCAN_WINDOW_DAYS), follower-count scans and tweets, at every scale. */
export const SCAN_WINDOW_DAYS = 60
export const FOLLOWER_COUNT_DAYS = 365
export const TWEET_DAYS = 60
/** Zipf exponent of whom a random follow goes to: in-degree becomes a power law with exponent 1 + 1/0.8 */
export const FOLLOW_ZIPF = 0.8
