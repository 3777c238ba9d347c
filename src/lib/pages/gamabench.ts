/**
 * What /gamabench needs besides the SQL of its measures (src/analyses/gamabench.ts,
 * where the page asks them by name and its first view is declared):
 * `prepareGamabench`, which creates the score table the measures read (the
 * build, the page's DuckDB and `parley stats` run it first), the order of
 * the models, and the round-by-round computation behind the measure "rounds".
 */
import {GAMABENCH_MODELS, gamabenchViews, gameScoresSQL, roundSummarySQL} from "../gamabench.js";
import type {Computation, Query, Row} from "../snapshot.js";

/** Views with every score column (gamabenchViews) and the table `scores`: one row per game file with its score. */
export async function prepareGamabench(query: Query): Promise<void> {
  const views = await gamabenchViews(query);
  await query(`CREATE OR REPLACE TABLE scores AS ${gameScoresSQL(views.games, views.turns)}`);
}

/** The paper's models in its order, then any other (Parley's strategies) by name. */
export function orderedModels(summary: Row[]): string[] {
  const present = [...new Set(summary.map((r) => r.model as string))];
  const known = GAMABENCH_MODELS.map((m) => m.model as string);
  return [...known.filter((m) => present.includes(m)), ...present.filter((m) => !known.includes(m)).sort()];
}

/** The model a page shows first: GPT-3.5 (0125), the paper's Table 5 model, when present. */
export const defaultModel = (models: string[]) => (models.includes("gpt-3.5-turbo-0125") ? "gpt-3.5-turbo-0125" : models[0]);

/** Figure 2's simultaneous games, in the order they are drawn. */
export const FIGURE_GAMES = ["guessing_game", "bar_game_explicit", "bar_game_implicit", "divide_dollar", "public_goods", "diner_dilemma", "sealed_bid_auction_first_price", "sealed_bid_auction_second_price"];

export interface RunCharts {
  games: Row[];
  /** Per drawn game: its decisions and per-round summary. */
  charts: {kind: string; game: Row; turns: Row[]; rounds: Row[]}[];
  /** The pirate game's votes, if the run has one. */
  pirate: {game: Row; votes: Row[]} | null;
}

/** One model's run: its games, Figure 2's round-by-round data and the pirate game's votes (Table 3); reads gamabenchViews' views. */
export const runCharts: Computation<{model: string; run: number}, RunCharts> = {
  name: "gamabench/run",
  async compute(query, {model, run}) {
    const games = await query(`SELECT * FROM games WHERE model = ? AND run = ? ORDER BY variant`, [model, run]);
    const charts: RunCharts["charts"] = [];
    for (const kind of FIGURE_GAMES) {
      const game = games.find((g) => g.variant === kind);
      if (!game) continue;
      const turns = await query(`SELECT round, seat, amount, choice, valuation FROM turns WHERE game_id = ? ORDER BY turn`, [game.game_id]);
      const rounds = await query(`SELECT * FROM (${roundSummarySQL("gamabench_games", "gamabench_turns")}) WHERE game_id = ? ORDER BY round`, [game.game_id]);
      charts.push({kind, game, turns, rounds});
    }
    const pirateGame = games.find((g) => g.variant === "pirate_game");
    const pirate = pirateGame
      ? {game: pirateGame, votes: await query(`SELECT round, seat, position, allocation, choice FROM turns WHERE game_id = ? AND action = 'vote' ORDER BY turn`, [pirateGame.game_id])}
      : null;
    return {games, charts, pirate};
  },
};
