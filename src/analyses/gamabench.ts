/**
 * The analysis of gamma-Bench (Huang et al. 2024): the eight games' raw
 * scores S1..S8 rescaled to 0–100 (§3, Tables 1, 2 and 5), their mean and
 * sample SD over runs per model, the overall score, and Figure 2's and
 * Table 3's round-by-round view of one run. The SQL is src/lib/gamabench.ts's;
 * this file names it, and declares /gamabench's first view.
 */
import {gamabenchViews, nestSummary, runOverallSQL, summarySQL, withScoresSQL, type SummaryRow} from "../lib/gamabench.js";
import {defaultModel, orderedModels, prepareGamabench, runCharts} from "../lib/pages/gamabench.js";
import type {FirstView, Query} from "../lib/snapshot.js";
import {sqlString} from "../lib/sqlText.js";
import {measureSQL, sqlMeasure, type Analysis, type Measure} from "./analysis.js";

/** The computation behind the measure "rounds", which /gamabench asks through `memo` (so that the build's first view answers it). */
export {runCharts};

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
  sqlMeasure({
    name: "summary",
    description: "The scores' rows: model, game ('overall' for the overall score), mean, sample SD over runs, runs",
    tables: ["games", "turns"],
    format: "json",
    dataset: "gamabench",
    prepare: prepareGamabench,
    sql: () => summarySQL("scores"),
  }),
  sqlMeasure({
    name: "game-scores",
    description: "§3: one row per game played: its raw score, and the 0–100 score unclipped and clipped",
    tables: ["games", "turns"],
    format: "json",
    dataset: "gamabench",
    prepare: prepareGamabench,
    sql: () => `SELECT * FROM scores`,
  }),
  sqlMeasure({
    name: "run-overall",
    description: "Table 5's robustness runs: one model's overall score per run (runs with all eight leaderboard games); every model when --model is empty",
    tables: ["games", "turns"],
    parameters: [{name: "model", kind: "string", default: "", description: "the model (e.g. gpt-3.5-turbo-0125)"}],
    format: "json",
    dataset: "gamabench",
    prepare: prepareGamabench,
    sql: (params) => (params.model ? `SELECT * FROM (${runOverallSQL("scores")}) WHERE model = ${sqlString(String(params.model))}` : runOverallSQL("scores")),
  }),
  {
    name: "rounds",
    description: "Figure 2 and Table 3: one model's run: its games, each simultaneous game's decisions and per-round summary, and the pirate game's votes",
    tables: ["games", "turns"],
    parameters: [
      {name: "model", kind: "string", default: "gpt-3.5-turbo-0125", description: "the model"},
      {name: "run", kind: "integer", default: 1, range: {min: 1, max: 1000}, description: "the run (T1 is 1)"},
    ],
    format: "json",
    dataset: "gamabench",
    async answer(query, params) {
      await gamabenchViews(query);
      return runCharts.compute(query, {model: String(params.model), run: Number(params.run)});
    },
  },
];

const firstViews: FirstView[] = [
  {
    page: "gamabench",
    dataset: "gamabench",
    tables: ["games", "turns"],
    prepare: prepareGamabench,
    async script({query, memo}) {
      await query(measureSQL(gamabenchAnalysis, "game-scores"));
      const models = orderedModels(await query(measureSQL(gamabenchAnalysis, "summary")));
      const model = defaultModel(models);
      if (!model) return;
      await query(measureSQL(gamabenchAnalysis, "run-overall", {model}));
      await memo(runCharts, {model, run: 1});
    },
  },
];

export const gamabenchAnalysis: Analysis = {
  paper: "gamabench",
  title: "gamma-Bench (Huang et al. 2024)",
  games: (game) => game.startsWith("gamabench/"),
  inputHint: (dir) => `run "parley ingest gamabench <raw_results dir> --out ${dir}" or "parley run <config.json> --out ${dir}" first`,
  measures,
  defaultMeasure: "scores",
  firstViews,
};
