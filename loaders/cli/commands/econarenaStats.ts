/**
 * `parley econarena-stats <dir>`: the Economics Arena (Guo et al. 2024, §3.2,
 * Appendix A.3) measures of a run directory's econarena games, one JSON row
 * per game (and auction format), environment and agent.
 */
import {econarenaViews, statsSQL, type StatsRow} from "../../../src/lib/econarena.js";
import {parse, printJson, UsageError} from "./args.js";
import {usage} from "./econarenaStats.usage.js";
import {withRunInputs} from "./inputs.js";

export async function econarenaStats(dir: string): Promise<StatsRow[]> {
  const hint = `run "parley run <config.json> --out ${dir}" with econarena games first`;
  return withRunInputs("econarena-stats", dir, ["games", "players", "turns"], (game) => game.startsWith("econarena/"), hint, async (db) => {
    const views = await econarenaViews((q) => db.query(q));
    return (await db.query(statsSQL(views))) as unknown as StatsRow[];
  });
}

export async function run(argv: string[]): Promise<number> {
  const {positionals} = parse("econarena-stats", argv, {});
  if (positionals.length !== 1) throw new UsageError(`parley ${usage}`);
  printJson(await econarenaStats(positionals[0]));
  return 0;
}
