/**
 * `parley negotiationarena-stats <dir>`: NegotiationArena (Bianchi et al.
 * 2024) §3 per scenario and ordered pair: games, decisive games, each
 * player's win rate with ties left out, and each player's mean payoff (JSON
 * Lines), from a run directory (`game=negotiationarena%2F.../`) or an
 * ingested NegotiationArena directory: the same SQL as the pages.
 */
import {withRunInputs} from "./inputs.js";
import {NA_PREFIX, pairStatsSQL, type PairStatsRow} from "../../../src/lib/negotiationArena.js";
import {parse, UsageError} from "./args.js";
import {usage} from "./negotiationarenaStats.usage.js";
import {printableJson} from "../../io/printable.js";

export async function negotiationArenaStats(dir: string): Promise<PairStatsRow[]> {
  const hint = `run "parley run <config.json> --out ${dir}" (e.g. data/runs/negotiationarena.json) or "parley ingest negotiationarena <logs> --out ${dir}" first`;
  return withRunInputs("negotiationarena-stats", dir, ["games"], (game) => game.startsWith(NA_PREFIX), hint, (db) => db.query<PairStatsRow & Record<string, unknown>>(pairStatsSQL("games")));
}

export async function run(argv: string[]): Promise<number> {
  const {positionals} = parse("negotiationarena-stats", argv, {});
  if (positionals.length !== 1) throw new UsageError(`usage: parley ${usage}`);
  const rows = await negotiationArenaStats(positionals[0]);
  if (rows.length) process.stdout.write(rows.map((r) => printableJson(JSON.stringify(r))).join("\n") + "\n");
  return 0;
}
