/**
 * gamma-Bench scoring (gamma-Bench (Huang et al. 2024), §3 and Appendix E):
 * raw scores S1..S8 per game, their 0–100 rescaling, and the overall score
 * (mean of the eight).
 *
 * This file is the one definition: pages run the SQL in DuckDB-WASM, the CLI
 * (`parley gamabench-scores`) and tests run it in native DuckDB. The SQL reads
 * the common `games` and `turns` tables (DESIGN.md, data model), as written by
 * loaders/papers/gamabench/ingest.ts from the paper's raw results and by `parley run`
 * for games Parley plays, through the views of `gamabenchViews`.
 *
 * Raw scores, with N players, K rounds (k rounds actually played in the
 * sequential games), over the decisions in turns:
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
import {projectView, type Query} from "./projectView.js";

/**
 * The ten game variants of the raw results, in the paper's order: `id` is the
 * raw results' game name (kept in games.variant), `game` the game id of the
 * common data model (games.game), `action` the action type of a decision in
 * turns (the pirate game's proposer also has a "propose" turn per round).
 */
export const GAMABENCH_GAMES = [
  {id: "guessing_game", game: "gamabench/guessing", action: "choose", label: "Guess 2/3 of the Average", score: "S1"},
  {id: "bar_game_explicit", game: "gamabench/el_farol", action: "decide", label: "El Farol Bar (explicit)", score: "S2"},
  {id: "bar_game_implicit", game: "gamabench/el_farol", action: "decide", label: "El Farol Bar", score: "S2"},
  {id: "divide_dollar", game: "gamabench/divide_dollar", action: "bid", label: "Divide the Dollar", score: "S3"},
  {id: "public_goods", game: "gamabench/public_goods", action: "contribute", label: "Public Goods Game", score: "S4"},
  {id: "diner_dilemma", game: "gamabench/diner", action: "order", label: "Diner's Dilemma", score: "S5"},
  {id: "sealed_bid_auction_first_price", game: "gamabench/sealed_bid", action: "bid", label: "Sealed-Bid Auction", score: "S6"},
  {id: "sealed_bid_auction_second_price", game: "gamabench/sealed_bid", action: "bid", label: "Sealed-Bid Auction (second price)", score: "S6"},
  {id: "battle_royale", game: "gamabench/battle_royale", action: "shoot", label: "Battle Royale", score: "S7"},
  {id: "pirate_game", game: "gamabench/pirate", action: "vote", label: "Pirate Game", score: "S8"},
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
const gameId = (variant: GamabenchGame) => `'${GAMABENCH_GAMES.find((g) => g.id === variant)!.game}'`;

/** games.variant when a game row has none (a Parley run may not set it): the game's variant, chosen by games.mode where there are two. */
const VARIANT = `coalesce(variant, CASE game
    WHEN ${gameId("bar_game_implicit")} THEN 'bar_game_' || coalesce(mode, 'implicit')
    WHEN ${gameId("sealed_bid_auction_first_price")} THEN 'sealed_bid_auction_' || coalesce(mode, 'first_price')
    ${GAMABENCH_GAMES.filter((g) => !["gamabench/el_farol", "gamabench/sealed_bid"].includes(g.game)).map((g) => `WHEN '${g.game}' THEN '${g.id}'`).join(" ")} END)`;

/**
 * The columns the score SQL reads, with their types: `gamabenchViews`
 * projects the games and turns tables onto exactly these, adding NULLs for
 * the ones a table lacks (a run of the guessing game alone has no `plan`).
 */
export const GAMABENCH_SCORE_COLUMNS = {
  games: [
    ["game_id", "VARCHAR"], ["game", "VARCHAR"], ["variant", "VARCHAR"], ["mode", "VARCHAR"], ["model", "VARCHAR"],
    ["run", "INTEGER"], ["repetition", "INTEGER"], ["n_players", "INTEGER"],
    ["param_min", "DOUBLE"], ["param_max", "DOUBLE"], ["ratio", "DOUBLE"], ["gold", "DOUBLE"], ["tokens", "DOUBLE"],
  ],
  turns: [
    ["game_id", "VARCHAR"], ["turn", "INTEGER"], ["round", "INTEGER"], ["seat", "INTEGER"], ["action", "VARCHAR"], ["rule_break", "BOOLEAN"],
    ["amount", "DOUBLE"], ["choice", "VARCHAR"], ["target", "INTEGER"], ["plan", "DOUBLE[]"], ["valuation", "DOUBLE"],
    ["position", "INTEGER"], ["allocation", "DOUBLE"], ["alive", "INTEGER[]"], ["alive_rates", "DOUBLE[]"],
  ],
} as const satisfies Record<string, readonly (readonly [string, string])[]>;

/**
 * One row per gamma-Bench game: game_id, model, game (the variant, e.g.
 * bar_game_implicit), run, raw, raw_voters, score_unclipped, score.
 *
 * Reads the common tables (DESIGN.md, data model): `games` (game id in
 * `game`, variant, parameters) and `turns` (one row per decision; rule-break
 * attempts are not counted). `games` and `turns` must have every column of
 * GAMABENCH_SCORE_COLUMNS: pass the views made by `gamabenchViews`.
 */
export function gameScoresSQL(games = "games", turns = "turns"): string {
  return `
WITH
gb AS (
  SELECT game_id, game, ${VARIANT} AS variant, model, coalesce(run, repetition + 1) AS run, n_players,
         param_min, param_max, ratio, gold, tokens
  FROM ${games} WHERE game LIKE 'gamabench/%'
),
d AS (
  SELECT t.*, g.game FROM ${turns} t JOIN gb g USING (game_id) WHERE NOT coalesce(t.rule_break, false)
),
s1 AS (
  SELECT g.game_id, avg(d.amount - g.param_min) AS raw, NULL::DOUBLE AS raw_voters,
         any_value(g.param_min) AS lo, any_value(g.param_max) AS hi, any_value(g.ratio) AS r
  FROM gb g JOIN d USING (game_id)
  WHERE g.game = ${gameId("guessing_game")} AND d.action = 'choose'
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
  SELECT g.game_id, d.round, any_value(g.ratio) AS r,
         sum(CASE WHEN d.choice = 'go' THEN 1 ELSE 0 END)::DOUBLE / count(*) AS share
  FROM gb g JOIN d USING (game_id)
  WHERE g.game = ${gameId("bar_game_implicit")} AND d.action = 'decide'
  GROUP BY g.game_id, d.round
),
s2s AS (
  SELECT game_id, avg(abs(share - r)) AS raw, NULL::DOUBLE AS raw_voters,
         (greatest(any_value(r), 1 - any_value(r)) - avg(abs(share - r))) / greatest(any_value(r), 1 - any_value(r)) * 100 AS score_unclipped
  FROM bar_rounds GROUP BY game_id
),
dollar_rounds AS (
  SELECT g.game_id, d.round, any_value(g.gold) AS gold, sum(d.amount) AS total
  FROM gb g JOIN d USING (game_id)
  WHERE g.game = ${gameId("divide_dollar")} AND d.action = 'bid'
  GROUP BY g.game_id, d.round
),
s3s AS (
  SELECT game_id, avg(abs(total - gold)) AS raw, NULL::DOUBLE AS raw_voters,
         (any_value(gold) - avg(abs(total - gold))) / any_value(gold) * 100 AS score_unclipped
  FROM dollar_rounds GROUP BY game_id
),
s4s AS (
  SELECT g.game_id, avg(d.amount) AS raw, NULL::DOUBLE AS raw_voters,
         (any_value(g.tokens) - avg(d.amount)) / any_value(g.tokens) * 100 AS score_unclipped
  FROM gb g JOIN d USING (game_id)
  WHERE g.game = ${gameId("public_goods")} AND d.action = 'contribute'
  GROUP BY g.game_id
),
s5s AS (
  SELECT g.game_id, avg(CASE WHEN d.choice = 'cheap' THEN 1.0 ELSE 0.0 END) AS raw, NULL::DOUBLE AS raw_voters,
         (1 - avg(CASE WHEN d.choice = 'cheap' THEN 1.0 ELSE 0.0 END)) * 100 AS score_unclipped
  FROM gb g JOIN d USING (game_id)
  WHERE g.game = ${gameId("diner_dilemma")} AND d.action = 'order'
  GROUP BY g.game_id
),
s6s AS (
  SELECT g.game_id, avg(d.valuation - d.amount) AS raw, NULL::DOUBLE AS raw_voters,
         avg(d.valuation - d.amount) / max(d.valuation) * 100 AS score_unclipped
  FROM gb g JOIN d USING (game_id)
  WHERE g.game = ${gameId("sealed_bid_auction_first_price")} AND d.action = 'bid'
  GROUP BY g.game_id
),
shots AS (
  SELECT game_id, turn, seat AS shooter, target, alive, alive_rates
  FROM d WHERE game = ${gameId("battle_royale")} AND action IN ('shoot', 'miss')
),
shot_others AS (
  -- every seat alive when the shot was taken, with its hit rate, but the shooter
  SELECT * FROM (SELECT game_id, turn, shooter, unnest(alive) AS seat, unnest(alive_rates) AS rate FROM shots) WHERE seat <> shooter
),
shot_best AS (
  -- the highest hit rate among the others (ties: the lowest seat)
  SELECT game_id, turn, seat AS best
  FROM (SELECT *, row_number() OVER (PARTITION BY game_id, turn ORDER BY rate DESC, seat) AS k FROM shot_others)
  WHERE k = 1
),
s7s AS (
  SELECT s.game_id, avg(CASE WHEN s.target IS NOT NULL AND s.target = b.best THEN 1.0 ELSE 0.0 END) AS raw, NULL::DOUBLE AS raw_voters,
         avg(CASE WHEN s.target IS NOT NULL AND s.target = b.best THEN 1.0 ELSE 0.0 END) * 100 AS score_unclipped
  FROM shots s LEFT JOIN shot_best b USING (game_id, turn) GROUP BY s.game_id
),
pirate_plans AS (
  -- one row per pirate in each proposal: position 1 is the proposer, n_left the pirates still aboard
  SELECT game_id, round, len(plan) AS n_left, unnest(plan) AS allocation, unnest(range(1, len(plan) + 1)) AS position
  FROM d WHERE game = ${gameId("pirate_game")} AND action = 'propose'
),
pirate_l1 AS (
  SELECT p.game_id, count(DISTINCT p.round) AS k, any_value(g.n_players) AS n, any_value(g.gold) AS gold,
         sum(abs(p.allocation - CASE WHEN p.position = 1 THEN g.gold - floor((p.n_left - 1) / 2)
                                     WHEN p.position % 2 = 1 THEN 1 ELSE 0 END)) AS l1
  FROM pirate_plans p JOIN gb g USING (game_id)
  GROUP BY p.game_id
),
pirate_votes AS (
  -- the voters other than the proposer: accept with >= 2 coins, reject with 0, with 1 accept iff the rank is odd
  SELECT game_id,
         sum(CASE WHEN choice = CASE WHEN allocation >= 2 THEN 'accept'
                                     WHEN allocation = 1 AND position % 2 = 1 THEN 'accept'
                                     ELSE 'reject' END THEN 1.0 ELSE 0.0 END) AS correct
  FROM d WHERE game = ${gameId("pirate_game")} AND action = 'vote' AND position > 1
  GROUP BY game_id
),
s8s AS (
  SELECT game_id, l1 / k AS raw, 2 * correct / (k * (2 * n - k - 1)) AS raw_voters,
         (2 * gold - l1 / k) / (2 * gold) * 50 + 2 * correct / (k * (2 * n - k - 1)) * 50 AS score_unclipped
  FROM pirate_l1 LEFT JOIN pirate_votes USING (game_id)
),
all_scores AS (
  SELECT * FROM s1s UNION ALL SELECT * FROM s2s UNION ALL SELECT * FROM s3s UNION ALL SELECT * FROM s4s
  UNION ALL SELECT * FROM s5s UNION ALL SELECT * FROM s6s UNION ALL SELECT * FROM s7s UNION ALL SELECT * FROM s8s
)
SELECT g.game_id, g.model, g.variant AS game, g.run::INTEGER AS run,
       s.raw::DOUBLE AS raw, s.raw_voters::DOUBLE AS raw_voters,
       s.score_unclipped::DOUBLE AS score_unclipped, ${clip("s.score_unclipped")}::DOUBLE AS score
FROM gb g JOIN all_scores s USING (game_id)
ORDER BY g.model, g.variant, g.run`;
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

/** `sql` (written against a relation named `scores`) run straight on the games and turns views of `gamabenchViews`. */
export function withScoresSQL(sql: string, games = "games", turns = "turns"): string {
  return `WITH scores AS MATERIALIZED (${gameScoresSQL(games, turns)})\nSELECT * FROM (${sql})`;
}

/**
 * Creates the views `gamabench_games` and `gamabench_turns` over the tables
 * (or relations) named in `sources`, with every column of
 * GAMABENCH_SCORE_COLUMNS (NULL where the data has none), and returns their
 * names for gameScoresSQL / withScoresSQL. Used by the page (DuckDB-WASM) and
 * `parley gamabench-scores` (native DuckDB) alike.
 */
export async function gamabenchViews(query: Query, sources: {games: string; turns: string} = {games: "games", turns: "turns"}): Promise<{games: string; turns: string}> {
  const views = {games: "gamabench_games", turns: "gamabench_turns"};
  await projectView(query, sources.games, views.games, GAMABENCH_SCORE_COLUMNS.games);
  await projectView(query, sources.turns, views.turns, GAMABENCH_SCORE_COLUMNS.turns);
  return views;
}

export type ScoreSummary = Record<string, Record<string, {mean: number; sd: number | null; runs: number}>>;

/** Nests summary rows as {model: {game: {mean, sd, runs}, overall: {...}}}. */
export function nestSummary(rows: SummaryRow[]): ScoreSummary {
  const out: ScoreSummary = {};
  for (const r of rows) (out[r.model] ??= {})[r.game] = {mean: r.mean, sd: r.sd, runs: r.runs};
  return out;
}

/**
 * Per-round summaries of the simultaneous games, from the decisions (legal
 * turns) alone, so Parley's runs and the ingested files chart alike: players
 * acting, the sum and mean of numeric decisions, the guessing game's target
 * (R × mean), and how many chose `go` (El Farol) or `cheap` (diner).
 */
export function roundSummarySQL(games: string, turns: string): string {
  return `
SELECT t.game_id, t.round,
       count(*)::INTEGER AS n_active,
       sum(t.amount) AS total,
       avg(t.amount) AS mean,
       CASE WHEN any_value(g.variant) = 'guessing_game' THEN any_value(g.ratio) * avg(t.amount) END AS target,
       count(*) FILTER (WHERE t.choice IN ('go', 'cheap'))::INTEGER AS n_yes
FROM ${turns} t JOIN ${games} g USING (game_id)
WHERE NOT coalesce(t.rule_break, false) AND t.action NOT IN ('propose', 'vote', 'shoot', 'miss')
GROUP BY t.game_id, t.round`;
}
