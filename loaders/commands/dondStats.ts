/** `parley dond-stats <dir> [--cumulative]`: seed 002 Table 9 rates from an ingested Deal-or-No-Deal directory. */
import {join} from "node:path";
import {existsSync} from "node:fs";
import {queryParquet} from "../io/parquet.js";
import {dondStatsSQL, type DondStatsRow} from "../../src/lib/dond.js";
import {parse, printJson, UsageError} from "./args.js";

export const usage = "dond-stats <dir> [--cumulative]                  agreement / envy-free / Pareto rates per difficulty (JSON)";

export async function dondStats(dir: string, cumulative = false): Promise<DondStatsRow[]> {
  const games = join(dir, "games.parquet");
  if (!existsSync(games)) throw new UsageError(`parley dond-stats: ${games} not found (run "parley ingest dond <file> --out ${dir}" first)`);
  return queryParquet<DondStatsRow & Record<string, unknown>>({games}, dondStatsSQL("games", {cumulative}));
}

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("dond-stats", argv, {cumulative: {type: "boolean", default: false}});
  if (positionals.length !== 1) throw new UsageError(`parley ${usage}`);
  printJson(await dondStats(positionals[0], values.cumulative));
  return 0;
}
