/** `parley gamabench-scores <dir>`: seed 003 scores (Tables 1, 2, 5) from an ingested gamma-Bench directory. */
import {existsSync} from "node:fs";
import {join} from "node:path";
import {queryParquet} from "../io/parquet.js";
import {nestSummary, summarySQL, gameScoresSQL, withScoresSQL, type ScoreSummary, type SummaryRow, type GameScoreRow} from "../../src/lib/gamabench.js";
import {parse, printJson, UsageError} from "./args.js";

export const usage = "gamabench-scores <dir> [--runs]                   gamma-Bench 0–100 scores {model: {game: {mean, sd, runs}, overall}} (JSON)";

function tables(dir: string): Record<string, string> {
  const games = join(dir, "games.parquet");
  const players = join(dir, "players.parquet");
  for (const path of [games, players]) {
    if (!existsSync(path)) throw new UsageError(`parley gamabench-scores: ${path} not found (run "parley ingest gamabench <raw_results dir> --out ${dir}" first)`);
  }
  return {games, players};
}

/** Mean, sample SD and run count per model and game, plus the overall score. */
export async function gamabenchScores(dir: string): Promise<ScoreSummary> {
  const rows = await queryParquet<SummaryRow & Record<string, unknown>>(tables(dir), withScoresSQL(summarySQL("scores"), "games", "players"));
  return nestSummary(rows);
}

/** One row per game file (raw score, unclipped and clipped 0–100 score). */
export async function gamabenchRunScores(dir: string): Promise<GameScoreRow[]> {
  return queryParquet<GameScoreRow & Record<string, unknown>>(tables(dir), gameScoresSQL("games", "players"));
}

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("gamabench-scores", argv, {runs: {type: "boolean", default: false}});
  if (positionals.length !== 1) throw new UsageError(`parley ${usage}`);
  printJson(values.runs ? await gamabenchRunScores(positionals[0]) : await gamabenchScores(positionals[0]));
  return 0;
}
