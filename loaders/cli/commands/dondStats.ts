/** `parley dond-stats <dir> [--cumulative]`: Game-theoretic LLM workflows (Hua et al. 2024) Table 9 rates from an ingested Deal-or-No-Deal directory or a run of dond/negotiation. */
import {join} from "node:path";
import {existsSync} from "node:fs";
import {inputPath, queryInputs, withRunInputs} from "./inputs.js";
import {isRunDirectory} from "../../io/runTables.js";
import {dond} from "../../papers/gtllm/dond/hardPoints.js";
import {dondStatsSQL, type DondStatsRow} from "../../../src/lib/dond.js";
import {parse, printJson, UsageError} from "./args.js";
import {usage} from "./dondStats.usage.js";

/**
 * Reads an ingest directory (flat games.parquet) or a `parley run` directory
 * (its dond/negotiation partition), so human dialogues and played games are
 * scored by the same SQL.
 */
export async function dondStats(dir: string, cumulative = false): Promise<DondStatsRow[]> {
  const hint = `run "parley ingest dond <file> --out ${dir}" or "parley run data/runs/dond.json --out ${dir}" first`;
  if (existsSync(dir)) inputPath("dond-stats", dir, "directory", hint);
  const sql = dondStatsSQL("games", {cumulative});
  if (existsSync(dir) && !existsSync(join(dir, "games.parquet")) && isRunDirectory(dir)) {
    return withRunInputs("dond-stats", dir, ["games"], (game) => game === dond.id, hint, (db) => db.query<DondStatsRow & Record<string, unknown>>(sql));
  }
  return queryInputs<DondStatsRow & Record<string, unknown>>("dond-stats", {games: join(dir, "games.parquet")}, sql, hint);
}

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("dond-stats", argv, {cumulative: {type: "boolean", default: false}});
  if (positionals.length !== 1) throw new UsageError(`parley ${usage}`);
  printJson(await dondStats(positionals[0], values.cumulative));
  return 0;
}
