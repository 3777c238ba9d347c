/**
 * The analysis of gamma-Bench (Huang et al. 2024): the eight games' raw
 * scores S1..S8 rescaled to 0–100 (§3, Tables 1, 2 and 5), their mean and
 * sample SD over runs per model, and the overall score. The SQL is
 * src/lib/gamabench.ts's; this file names it.
 */
import {gamabenchViews, gameScoresSQL, nestSummary, runOverallSQL, summarySQL, withScoresSQL, type SummaryRow} from "../lib/gamabench.js";
import {gamabenchFirstView} from "../lib/pages/gamabench.js";
import type {Query} from "../lib/snapshot.js";
import {sqlString} from "../lib/sqlText.js";
import type {Analysis, Measure} from "./analysis.js";

/** Runs `sql` (written against the relation `scores`, one row per game with its score) on the games and turns, through gamabenchViews. */
async function overScores(query: Query, sql: string) {
  const views = await gamabenchViews(query);
  return query(withScoresSQL(sql, views.games, views.turns));
}

const measures: Measure[] = [
  {
    name: "scores",
    description: "Tables 1, 2 and 5: mean 0–100 score, sample SD and run count per model and game, and the overall score, as {model: {game: {mean, sd, runs}, overall}}",
    tables: ["games", "turns"],
    format: "json",
    dataset: "gamabench",
    answer: async (query) => nestSummary((await overScores(query, summarySQL("scores"))) as unknown as SummaryRow[]),
  },
  {
    name: "summary",
    description: "The scores' rows: model, game ('overall' for the overall score), mean, sample SD over runs, runs",
    tables: ["games", "turns"],
    format: "json",
    dataset: "gamabench",
    answer: (query) => overScores(query, summarySQL("scores")),
  },
  {
    name: "game-scores",
    description: "§3: one row per game played: its raw score, and the 0–100 score unclipped and clipped",
    tables: ["games", "turns"],
    format: "json",
    dataset: "gamabench",
    async answer(query) {
      const views = await gamabenchViews(query);
      return query(gameScoresSQL(views.games, views.turns));
    },
  },
  {
    name: "run-overall",
    description: "Table 5's robustness runs: one model's overall score per run (runs with all eight leaderboard games); every model when --model is empty",
    tables: ["games", "turns"],
    parameters: [{name: "model", kind: "string", default: "", description: "the model (e.g. gpt-3.5-turbo-0125)"}],
    format: "json",
    dataset: "gamabench",
    answer: (query, params) => overScores(query, params.model ? `SELECT * FROM (${runOverallSQL("scores")}) WHERE model = ${sqlString(String(params.model))}` : runOverallSQL("scores")),
  },
];

export const gamabenchAnalysis: Analysis = {
  paper: "gamabench",
  title: "gamma-Bench (Huang et al. 2024)",
  games: (game) => game.startsWith("gamabench/"),
  inputHint: (dir) => `run "parley ingest gamabench <raw_results dir> --out ${dir}" or "parley run <config.json> --out ${dir}" first`,
  measures,
  defaultMeasure: "scores",
  firstViews: [gamabenchFirstView],
};
