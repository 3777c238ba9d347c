/** `parley gamabench-scores <dir>`: seed 003 scores (Tables 1, 2, 5) from an ingested gamma-Bench directory. */
import {existsSync} from "node:fs";
import {join} from "node:path";
import {inputPath, queryInputs} from "./inputs.js";
import {nestSummary, summarySQL, gameScoresSQL, withScoresSQL, type ScoreSummary, type SummaryRow, type GameScoreRow} from "../../src/lib/gamabench.js";
import {parse, printJson, UsageError} from "./args.js";

export const usage = "gamabench-scores <dir> [--runs]                   gamma-Bench 0–100 scores {model: {game: {mean, sd, runs}, overall}} (JSON)";

const hint = (dir: string) => `run "parley ingest gamabench <raw_results dir> --out ${dir}" first`;

function tables(dir: string): Record<string, string> {
  if (existsSync(dir)) inputPath("gamabench-scores", dir, "directory", hint(dir));
  return {games: join(dir, "games.parquet"), players: join(dir, "players.parquet")};
}

/** Mean, sample SD and run count per model and game, plus the overall score. */
export async function gamabenchScores(dir: string): Promise<ScoreSummary> {
  const rows = await queryInputs<SummaryRow & Record<string, unknown>>("gamabench-scores", tables(dir), withScoresSQL(summarySQL("scores"), "games", "players"), hint(dir));
  return nestSummary(rows);
}

/** One row per game file (raw score, unclipped and clipped 0–100 score). */
export async function gamabenchRunScores(dir: string): Promise<GameScoreRow[]> {
  return queryInputs<GameScoreRow & Record<string, unknown>>("gamabench-scores", tables(dir), gameScoresSQL("games", "players"), hint(dir));
}

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("gamabench-scores", argv, {runs: {type: "boolean", default: false}});
  if (positionals.length !== 1) throw new UsageError(`parley ${usage}`);
  printJson(values.runs ? await gamabenchRunScores(positionals[0]) : await gamabenchScores(positionals[0]));
  return 0;
}
