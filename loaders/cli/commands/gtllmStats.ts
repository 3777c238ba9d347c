/**
 * `parley gtllm-stats <dir>`: Nash-equilibrium and Pareto-optimal-equilibrium
 * rates (Game-theoretic LLM workflows (Hua et al. 2024) §4.2, Tables 5–8) of
 * the matrix and tree games in a run directory, per game, ordered pair of
 * players, talk rounds and workflow use.
 */
import {withRunInputs} from "./inputs.js";
import {gtllmStatsSQL, type GtllmStatsRow} from "../../../src/lib/gtllm.js";
import {dataGame} from "../../registry/games.js";
import {parse, printJson, UsageError} from "./args.js";
import {usage} from "./gtllmStats.usage.js";

export async function gtllmStats(dir: string): Promise<GtllmStatsRow[]> {
  const hint = `play a matrix or tree game first, e.g. "parley run data/runs/gtllm.json --out ${dir}"`;
  return withRunInputs("gtllm-stats", dir, ["games"], (game) => dataGame(game) !== undefined, hint, async (db) => (await db.query(gtllmStatsSQL("games"))) as unknown as GtllmStatsRow[]);
}

export async function run(argv: string[]): Promise<number> {
  const {positionals} = parse("gtllm-stats", argv, {});
  if (positionals.length !== 1) throw new UsageError(`parley ${usage}`);
  printJson(await gtllmStats(positionals[0]));
  return 0;
}
