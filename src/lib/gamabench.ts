/**
 * gamma-Bench scoring (seed 003, §3 and Appendix E): raw scores S1..S8 per
 * game file, their 0–100 rescaling, and the overall score (mean of the eight).
 *
 * This file is the one definition: pages run the SQL in DuckDB-WASM, the CLI
 * (`parley gamabench-scores`) and tests run it in native DuckDB. The SQL reads
 * the `games` and `players` tables written by loaders/ingest/gamabench.ts.
 *
 * Raw scores, with N players, K rounds (k rounds actually played in the
 * sequential games), over the players table:
 * - S1 guessing game: mean over players and rounds of (C_ij − MIN);
 * - S2 El Farol: mean over rounds of |share going − R| (the implicit setting
 *   counts for the overall score; footnote 3);
 * - S3 divide the dollar: mean over rounds of |Σ_i B_ij − G|;
 * - S4 public goods: mean contribution;
 * - S5 diner's dilemma: share of cheap-dish orders;
 * - S6 sealed-bid auction: mean of (valuation − bid); the first-price auction
 *   counts for the overall score (footnote 4);
 * - S7 battle royale: share of shots aimed at the surviving player with the
 *   highest hit rate other than the shooter (an intentional miss is not);
 * - S8 pirate game: S8P = (1/k) Σ_j ‖P_j − O_j‖₁ against the optimal proposal
 *   for the pirates left in round j (the proposer keeps G minus one coin for
 *   each odd-ranked pirate 3, 5, …; Stewart 1999), and S8V = share of correct
 *   votes over the k(2N−k−1)/2 voters (accept with ≥ 2 coins, reject with 0,
 *   with exactly 1 accept iff the voter's rank has the proposer's parity).
 * Rescaled (Eq. 1): S1 = (MAX − S1)/(MAX − MIN)·100 for R < 1 (|2S1 − (MAX −
 * MIN)|/(MAX − MIN)·100 for R = 1, S1/(MAX − MIN)·100 for R > 1);
 * S2 = (max(R, 1−R) − S2)/max(R, 1−R)·100; S3 = (G − S3)/G·100;
 * S4 = (T − S4)/T·100; S5 = (1 − S5)·100; S6 = S6 / max_ij v_ij ·100;
 * S7 = S7·100; S8 = (2G − S8P)/(2G)·50 + S8V·50.
 * Appendix E rescales "to a range of 0 to 100", so scores are clipped to
 * [0, 100]; `score_unclipped` keeps Eq. 1's value (S3 goes negative when the
 * bids overshoot G by more than G, e.g. Mixtral-8x7B, whose Table 2 entry
 * 1.2 ± 2.8 is only reproduced with the clip).
 */

/** The ten game variants in the raw results, in the paper's order. */
export const GAMABENCH_GAMES = [
  {id: "guessing_game", label: "Guess 2/3 of the Average", score: "S1"},
  {id: "bar_game_explicit", label: "El Farol Bar (explicit)", score: "S2"},
  {id: "bar_game_implicit", label: "El Farol Bar", score: "S2"},
  {id: "divide_dollar", label: "Divide the Dollar", score: "S3"},
  {id: "public_goods", label: "Public Goods Game", score: "S4"},
  {id: "diner_dilemma", label: "Diner's Dilemma", score: "S5"},
  {id: "sealed_bid_auction_first_price", label: "Sealed-Bid Auction", score: "S6"},
  {id: "sealed_bid_auction_second_price", label: "Sealed-Bid Auction (second price)", score: "S6"},
  {id: "battle_royale", label: "Battle Royale", score: "S7"},
  {id: "pirate_game", label: "Pirate Game", score: "S8"},
] as const;

export type GamabenchGame = (typeof GAMABENCH_GAMES)[number]["id"];

/** The eight games whose mean is the overall score (El Farol implicit, first-price auction). */
export const LEADERBOARD_GAMES: GamabenchGame[] = [
  "guessing_game",
  "bar_game_implicit",
  "divide_dollar",
  "public_goods",
  "diner_dilemma",
  "sealed_bid_auction_first_price",
  "battle_royale",
  "pirate_game",
];

/** The paper's model columns (Tables 1 and 2), by the model names in the file names. */
export const GAMABENCH_MODELS = [
  {model: "gpt-3.5-turbo-0613", label: "GPT-3.5 (0613)", table: 1},
  {model: "gpt-3.5-turbo-1106", label: "GPT-3.5 (1106)", table: 1},
  {model: "gpt-3.5-turbo-0125", label: "GPT-3.5 (0125)", table: 1},
  {model: "gpt-4-0125-preview", label: "GPT-4 (0125)", table: 1},
  {model: "gemini-1.0-pro", label: "Gemini-Pro 1.0", table: 1},
  {model: "gemini-1.5-pro", label: "Gemini-Pro 1.5", table: 1},
  {model: "llama-3.1-8b", label: "LLaMA-3.1 8B", table: 2},
  {model: "llama-3.1-70b", label: "LLaMA-3.1 70B", table: 2},
  {model: "llama-3.1-405b", label: "LLaMA-3.1 405B", table: 2},
  {model: "mixtral-8x7b", label: "Mixtral 8x7B", table: 2},
  {model: "mixtral-8x22b", label: "Mixtral 8x22B", table: 2},
  {model: "qwen2-72b", label: "Qwen-2 72B", table: 2},
] as const;

export function gameLabel(id: string): string {
  return GAMABENCH_GAMES.find((g) => g.id === id)?.label ?? id;
}

export function modelLabel(model: string): string {
  return GAMABENCH_MODELS.find((m) => m.model === model)?.label ?? model;
}

export interface GameScoreRow {
  game_id: string;
  model: string;
  game: string;
  run: number;
  /** S1..S8 as defined in §3 (S8P for the pirate game). */
  raw: number;
  /** S8V for the pirate game, null elsewhere. */
  raw_voters: number | null;
  score_unclipped: number;
  score: number;
}

const clip = (x: string) => `greatest(0.0, least(100.0, ${x}))`;
const list = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(", ");

/** One row per game file: game_id, model, game, run, raw, raw_voters, score_unclipped, score. */
export function gameScoresSQL(games = "games", players = "players"): string {
  return `
WITH
s1 AS (
  SELECT g.game_id, avg(p.amount - g.param_min) AS raw, NULL::DOUBLE AS raw_voters,
         any_value(g.param_min) AS lo, any_value(g.param_max) AS hi, any_value(g.ratio) AS r
  FROM ${games} g JOIN ${players} p USING (game_id)
  WHERE g.game = 'guessing_game'
  GROUP BY g.game_id
),
s1s AS (
  SELECT game_id, raw, raw_voters,
         CASE WHEN r < 1 THEN (hi - raw) / (hi - lo) * 100
              WHEN r = 1 THEN abs(2 * raw - (hi - lo)) / (hi - lo) * 100
              ELSE raw / (hi - lo) * 100 END AS score_unclipped
  FROM s1
),
bar_rounds AS (
  SELECT g.game_id, p.round, any_value(g.ratio) AS r,
         sum(CASE WHEN p.action = 'go' THEN 1 ELSE 0 END)::DOUBLE / count(*) AS share
  FROM ${games} g JOIN ${players} p USING (game_id)
  WHERE g.game IN ('bar_game_explicit', 'bar_game_implicit')
  GROUP BY g.game_id, p.round
),
s2s AS (
  SELECT game_id, avg(abs(share - r)) AS raw, NULL::DOUBLE AS raw_voters,
         (greatest(any_value(r), 1 - any_value(r)) - avg(abs(share - r))) / greatest(any_value(r), 1 - any_value(r)) * 100 AS score_unclipped
  FROM bar_rounds GROUP BY game_id
),
dollar_rounds AS (
  SELECT g.game_id, p.round, any_value(g.gold) AS gold, sum(p.amount) AS total
  FROM ${games} g JOIN ${players} p USING (game_id)
  WHERE g.game = 'divide_dollar'
  GROUP BY g.game_id, p.round
),
s3s AS (
  SELECT game_id, avg(abs(total - gold)) AS raw, NULL::DOUBLE AS raw_voters,
         (any_value(gold) - avg(abs(total - gold))) / any_value(gold) * 100 AS score_unclipped
  FROM dollar_rounds GROUP BY game_id
),
s4s AS (
  SELECT g.game_id, avg(p.amount) AS raw, NULL::DOUBLE AS raw_voters,
         (any_value(g.tokens) - avg(p.amount)) / any_value(g.tokens) * 100 AS score_unclipped
  FROM ${games} g JOIN ${players} p USING (game_id)
  WHERE g.game = 'public_goods'
  GROUP BY g.game_id
),
s5s AS (
  SELECT g.game_id, avg(CASE WHEN p.action = 'cheap' THEN 1.0 ELSE 0.0 END) AS raw, NULL::DOUBLE AS raw_voters,
         (1 - avg(CASE WHEN p.action = 'cheap' THEN 1.0 ELSE 0.0 END)) * 100 AS score_unclipped
  FROM ${games} g JOIN ${players} p USING (game_id)
  WHERE g.game = 'diner_dilemma'
  GROUP BY g.game_id
),
s6s AS (
  SELECT g.game_id, avg(p.valuation - p.amount) AS raw, NULL::DOUBLE AS raw_voters,
         avg(p.valuation - p.amount) / max(p.valuation) * 100 AS score_unclipped
  FROM ${games} g JOIN ${players} p USING (game_id)
  WHERE g.game IN ('sealed_bid_auction_first_price', 'sealed_bid_auction_second_price')
  GROUP BY g.game_id
),
br AS (
  SELECT p.game_id, p.round, p.player, p.hit_rate, p.is_actor, p.target
  FROM ${games} g JOIN ${players} p USING (game_id)
  WHERE g.game = 'battle_royale'
),
br_ranked AS (
  SELECT game_id, round, player, row_number() OVER (PARTITION BY game_id, round ORDER BY hit_rate DESC, player) AS k FROM br
),
br_top AS (
  SELECT game_id, round, max(CASE WHEN k = 1 THEN player END) AS first, max(CASE WHEN k = 2 THEN player END) AS second
  FROM br_ranked WHERE k <= 2 GROUP BY game_id, round
),
shots AS (
  -- the highest hit rate among the others: the top player, or the runner-up when the shooter is on top
  SELECT s.game_id, s.round, s.target, CASE WHEN t.first = s.player THEN t.second ELSE t.first END AS best
  FROM br s JOIN br_top t USING (game_id, round)
  WHERE s.is_actor
),
s7s AS (
  SELECT game_id, avg(CASE WHEN target IS NOT NULL AND target = best THEN 1.0 ELSE 0.0 END) AS raw, NULL::DOUBLE AS raw_voters,
         avg(CASE WHEN target IS NOT NULL AND target = best THEN 1.0 ELSE 0.0 END) * 100 AS score_unclipped
  FROM shots GROUP BY game_id
),
pirate_rows AS (
  SELECT g.game_id, g.n_players AS n_total, g.gold, p.round, p.position, p.allocation, p.action,
         count(*) OVER (PARTITION BY g.game_id, p.round) AS n_left
  FROM ${games} g JOIN ${players} p USING (game_id)
  WHERE g.game = 'pirate_game'
),
pirate_scored AS (
  SELECT *,
         abs(allocation - CASE WHEN position = 1 THEN gold - floor((n_left - 1) / 2)
                               WHEN position % 2 = 1 THEN 1 ELSE 0 END) AS l1,
         CASE WHEN position = 1 THEN NULL
              WHEN action = CASE WHEN allocation >= 2 THEN 'accept'
                                 WHEN allocation = 1 AND position % 2 = 1 THEN 'accept'
                                 ELSE 'reject' END THEN 1.0 ELSE 0.0 END AS correct
  FROM pirate_rows
),
pirate_games AS (
  SELECT game_id, any_value(n_total) AS n, any_value(gold) AS gold, count(DISTINCT round) AS k,
         sum(l1) AS l1, sum(correct) AS correct
  FROM pirate_scored GROUP BY game_id
),
s8s AS (
  SELECT game_id, l1 / k AS raw, 2 * correct / (k * (2 * n - k - 1)) AS raw_voters,
         (2 * gold - l1 / k) / (2 * gold) * 50 + 2 * correct / (k * (2 * n - k - 1)) * 50 AS score_unclipped
  FROM pirate_games
),
all_scores AS (
  SELECT * FROM s1s UNION ALL SELECT * FROM s2s UNION ALL SELECT * FROM s3s UNION ALL SELECT * FROM s4s
  UNION ALL SELECT * FROM s5s UNION ALL SELECT * FROM s6s UNION ALL SELECT * FROM s7s UNION ALL SELECT * FROM s8s
)
SELECT g.game_id, g.model, g.game, g.run::INTEGER AS run,
       s.raw::DOUBLE AS raw, s.raw_voters::DOUBLE AS raw_voters,
       s.score_unclipped::DOUBLE AS score_unclipped, ${clip("s.score_unclipped")}::DOUBLE AS score
FROM ${games} g JOIN all_scores s USING (game_id)
ORDER BY g.model, g.game, g.run`;
}

/**
 * One row per (model, run) with all eight leaderboard games: model, run, overall, n_games.
 * `scores` is a table or view holding the rows of gameScoresSQL.
 */
export function runOverallSQL(scores = "scores"): string {
  return `
SELECT model, run, avg(score)::DOUBLE AS overall, count(*)::INTEGER AS n_games
FROM ${scores} WHERE game IN (${list(LEADERBOARD_GAMES)})
GROUP BY model, run
HAVING count(DISTINCT game) = ${LEADERBOARD_GAMES.length}
ORDER BY model, run`;
}

export interface SummaryRow {
  model: string;
  /** A game id, or "overall". */
  game: string;
  mean: number;
  /** Sample standard deviation over runs (n − 1), as the paper's ± values; null for one run. */
  sd: number | null;
  runs: number;
}

/**
 * Mean ± sample SD over runs per (model, game) for all ten variants, plus
 * game = 'overall' (mean and SD of the per-run overall scores). `scores` is a
 * table or view holding the rows of gameScoresSQL.
 */
export function summarySQL(scores = "scores"): string {
  return `
SELECT model, game, avg(score)::DOUBLE AS mean, stddev_samp(score)::DOUBLE AS sd, count(*)::INTEGER AS runs
FROM ${scores} GROUP BY model, game
UNION ALL
SELECT model, 'overall' AS game, avg(overall)::DOUBLE AS mean, stddev_samp(overall)::DOUBLE AS sd, count(*)::INTEGER AS runs
FROM (${runOverallSQL(scores)}) GROUP BY model
ORDER BY model, game`;
}

/** `sql` (written against a relation named `scores`) run straight on the games and players tables. */
export function withScoresSQL(sql: string, games = "games", players = "players"): string {
  return `WITH scores AS MATERIALIZED (${gameScoresSQL(games, players)})\nSELECT * FROM (${sql})`;
}

export type ScoreSummary = Record<string, Record<string, {mean: number; sd: number | null; runs: number}>>;

/** Nests summary rows as {model: {game: {mean, sd, runs}, overall: {...}}}. */
export function nestSummary(rows: SummaryRow[]): ScoreSummary {
  const out: ScoreSummary = {};
  for (const r of rows) (out[r.model] ??= {})[r.game] = {mean: r.mean, sd: r.sd, runs: r.runs};
  return out;
}
