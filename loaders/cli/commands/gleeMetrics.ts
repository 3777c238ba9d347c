/** `parley metrics <dir>`: GLEE efficiency, fairness and self-gains per game (JSON Lines) from a run directory. */
import {withRunInputs} from "./inputs.js";
import {GLEE_CONVENTIONS, gleeMetricsSQL, type GleeConventions, type GleeMetricsRow} from "../../../src/lib/gleeMetrics.js";
import {choiceOption, parse, UsageError} from "./args.js";
import {printableJson} from "../../io/printable.js";
import {usage} from "./gleeMetrics.usage.js";

/** GLEE games of a run directory (the glee/* partitions, or a flat GLEE table). */
export const isGlee = (game: string) => game.startsWith("glee/");

/** Per-game metrics; `conventions` picks the paper's formulas (default) or GLEE's code's (src/lib/gleeMetrics.ts). */
export async function gleeMetrics(dir: string, conventions: GleeConventions = "paper"): Promise<GleeMetricsRow[]> {
  const hint = `run "parley run <config.json> --out ${dir}" first`;
  return withRunInputs("metrics", dir, ["games"], isGlee, hint, (db) => db.query<GleeMetricsRow & Record<string, unknown>>(`${gleeMetricsSQL("games", {conventions})} ORDER BY game_id`));
}

export async function run(argv: string[]): Promise<number> {
  const {values, positionals} = parse("metrics", argv, {conventions: {type: "string"}});
  if (positionals.length !== 1) throw new UsageError(`usage: parley ${usage}`);
  const conventions = choiceOption("metrics", "conventions", values.conventions, GLEE_CONVENTIONS, "paper");
  const rows = await gleeMetrics(positionals[0], conventions);
  const chunk: string[] = [];
  for (const row of rows) {
    chunk.push(printableJson(JSON.stringify(row)));
    if (chunk.length >= 10000) process.stdout.write(chunk.splice(0).join("\n") + "\n");
  }
  if (chunk.length) process.stdout.write(chunk.join("\n") + "\n");
  return 0;
}
