/**
 * `parley gamabench-scores <dir>`: gamma-Bench (Huang et al. 2024) scores
 * (Tables 1, 2, 5) from the common games and turns tables: an ingested
 * gamma-Bench directory (`<dir>/games.parquet`, `<dir>/turns.parquet`) or a
 * run directory partitioned by game (`<dir>/game=gamabench%2F.../`).
 */
import {withRunInputs} from "./inputs.js";
import {gamabenchViews, nestSummary, summarySQL, gameScoresSQL, withScoresSQL, type ScoreSummary, type SummaryRow, type GameScoreRow} from "../../../src/lib/gamabench.js";
import {parse, printJson, UsageError} from "./args.js";
import {usage} from "./gamabenchScores.usage.js";

const isGamabench = (game: string) => game.startsWith("gamabench/");

/** Runs `sql` (over the views named by gamabenchViews) on the games and turns of `dir`, either layout. */
function scoreQuery<T>(dir: string, sql: (views: {games: string; turns: string}) => string): Promise<T[]> {
  const hint = `run "parley ingest gamabench <raw_results dir> --out ${dir}" or "parley run <config.json> --out ${dir}" first`;
  return withRunInputs("gamabench-scores", dir, ["games", "turns"], isGamabench, hint, async (db) => {
    const views = await gamabenchViews((q) => db.query(q));
    return db.query(sql(views)) as Promise<T[]>;
  });
}

/** Mean, sample SD and run count per model and game, plus the overall score. */
export async function gamabenchScores(dir: string): Promise<ScoreSummary> {
  return nestSummary(await scoreQuery<SummaryRow>(dir, (v) => withScoresSQL(summarySQL("scores"), v.games, v.turns)));
}

/** One row per game (raw score, unclipped and clipped 0–100 score). */
export async function gamabenchRunScores(dir: string): Promise<GameScoreRow[]> {
  return scoreQuery<GameScoreRow>(dir, (v) => gameScoresSQL(v.games, v.turns));
}

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("gamabench-scores", argv, {runs: {type: "boolean", default: false}});
  if (positionals.length !== 1) throw new UsageError(`parley ${usage}`);
  printJson(values.runs ? await gamabenchRunScores(positionals[0]) : await gamabenchScores(positionals[0]));
  return 0;
}
