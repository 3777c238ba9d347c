/** `parley dond-stats <dir> [--cumulative]`: Game-theoretic LLM workflows (Hua et al. 2024) Table 9 rates from an ingested Deal-or-No-Deal directory. */
import {join} from "node:path";
import {existsSync} from "node:fs";
import {inputPath, queryInputs} from "./inputs.js";
import {dondStatsSQL, type DondStatsRow} from "../../src/lib/dond.js";
import {parse, printJson, UsageError} from "./args.js";
import {commands} from "./index.js";

export const usage = commands["dond-stats"].usage;

export async function dondStats(dir: string, cumulative = false): Promise<DondStatsRow[]> {
  const hint = `run "parley ingest dond <file> --out ${dir}" first`;
  if (existsSync(dir)) inputPath("dond-stats", dir, "directory", hint);
  return queryInputs<DondStatsRow & Record<string, unknown>>("dond-stats", {games: join(dir, "games.parquet")}, dondStatsSQL("games", {cumulative}), hint);
}

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("dond-stats", argv, {cumulative: {type: "boolean", default: false}});
  if (positionals.length !== 1) throw new UsageError(`parley ${usage}`);
  printJson(await dondStats(positionals[0], values.cumulative));
  return 0;
}
